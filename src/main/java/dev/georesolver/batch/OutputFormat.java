package dev.georesolver.batch;

import java.util.Locale;
import java.util.Optional;

/** The formats results are written in. */
public enum OutputFormat {
  /** CSV with a header row: the input columns, then the result columns. */
  CSV,
  /** One JSON object a line, with the same fields as a CSV row (absent values left out). */
  NDJSON,
  /** A GeoJSON FeatureCollection: a Point per resolved row (null geometry otherwise), the fields as properties. */
  GEOJSON;

  /** The format a file name asks for by its extension: .csv, .ndjson/.jsonl, .geojson/.json. */
  public static Optional<OutputFormat> forFileName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".csv") || n.endsWith(".tsv") || n.endsWith(".txt")) {
      return Optional.of(CSV);
    }
    if (n.endsWith(".ndjson") || n.endsWith(".jsonl")) {
      return Optional.of(NDJSON);
    }
    if (n.endsWith(".geojson") || n.endsWith(".json")) {
      return Optional.of(GEOJSON);
    }
    return Optional.empty();
  }

  /** The lower-case name, as given on a command line or in {@code ?format=}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
