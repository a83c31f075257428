package dev.georesolver.normalize;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a tab-separated table of address pairs from {@code src/test/resources/normalize}: first,
 * second, why. Lines starting with {@code //} are comments. The file is read by hand rather than
 * with {@code @CsvFileSource} because "#" and quotes are meaningful in addresses.
 */
final class PairTable {

  /** One row of the table. */
  record Pair(String first, String second, String why) {}

  private PairTable() {}

  static List<Pair> read(String name) {
    String resource = "/normalize/" + name;
    try (InputStream in = PairTable.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + resource);
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      List<Pair> pairs = new ArrayList<>();
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isBlank() || line.startsWith("//")) {
          continue;
        }
        String[] cells = line.split("\t", -1);
        if (cells.length != 3) {
          throw new IllegalStateException(resource + ":" + number + " needs 3 tab-separated cells");
        }
        pairs.add(new Pair(cells[0], cells[1], cells[2]));
      }
      return pairs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
