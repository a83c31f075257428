package dev.georesolver.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A certificate authority made for one test run with {@code openssl} (installed by
 * {@code scripts/test.sh}): P-256 keys, two-day certificates, everything in a directory the test
 * owns. No key is ever committed. Blocking: call from the test thread.
 */
public final class TestPki {

  private final String openssl;
  private final Path dir;

  /** A certificate and its key, as PEM files. */
  public record Issued(Path cert, Path key) {}

  private TestPki(String openssl, Path dir) {
    this.openssl = openssl;
    this.dir = dir;
  }

  /** A new authority in {@code dir}. */
  public static TestPki create(Path dir) throws IOException, InterruptedException {
    TestPki pki = new TestPki(Tools.find("openssl", "OPENSSL", null), dir);
    pki.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
        "-out", "ca.pem", "-days", "2", "-subj", "/CN=georesolver test CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    return pki;
  }

  /** The authority's certificate (what a peer trusts). */
  public Path caFile() {
    return dir.resolve("ca.pem");
  }

  /** A server certificate for these DNS names (the first is also its CN). */
  public Issued server(String name, String... dnsNames) throws IOException, InterruptedException {
    List<String> san = new ArrayList<>(List.of(dnsNames));
    san.add(0, name);
    return issue(name, "subjectAltName=" + String.join(",", san.stream().map(n -> "DNS:" + n).toList()) + "\n"
        + "extendedKeyUsage=serverAuth\n");
  }

  /** A client certificate with common name {@code cn}, for mutual TLS. */
  public Issued client(String cn) throws IOException, InterruptedException {
    return issue(cn, "extendedKeyUsage=clientAuth\n");
  }

  /**
   * A certificate for a member of a mutual-TLS cluster, which is both server and client of its
   * peers: common name {@code cn}, usable for server and client authentication.
   */
  public Issued member(String cn) throws IOException, InterruptedException {
    return issue(cn, "extendedKeyUsage=serverAuth,clientAuth\n");
  }

  /**
   * Writes a new client certificate for {@code cn} over {@code into}, each file replaced by an
   * atomic rename, the key first: a watcher may see the new key with the old certificate for a
   * moment, which it must not take.
   */
  public void reissueClientInto(String cn, Issued into) throws IOException, InterruptedException {
    Issued fresh = client(cn);
    Files.move(fresh.key(), into.key(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Thread.sleep(1500);
    Files.move(fresh.cert(), into.cert(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private Issued issue(String cn, String extensions) throws IOException, InterruptedException {
    String base = cn.replaceAll("[^A-Za-z0-9.-]", "_") + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
    Files.writeString(dir.resolve(base + ".ext"), extensions);
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", base + ".key", "-out", base + ".csr",
        "-subj", "/CN=" + cn);
    openssl("x509", "-req", "-in", base + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial",
        Long.toString(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE)), "-days", "2", "-out", base + ".pem",
        "-extfile", base + ".ext");
    return new Issued(dir.resolve(base + ".pem"), dir.resolve(base + ".key"));
  }

  private void openssl(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(openssl);
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new AssertionError("openssl " + String.join(" ", args) + " failed:\n" + out);
    }
  }
}
