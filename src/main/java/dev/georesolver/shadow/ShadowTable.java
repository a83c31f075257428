package dev.georesolver.shadow;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Every pair's {@link PairStats}: what one node has counted, what the state store holds, or both
 * merged. Merging is exact, associative and commutative, like {@link PairStats#add}.
 *
 * <p>At most {@link #MAX_PAIRS} pairs (far more than ladders and intents make), so a table stays
 * bounded in memory (each pair is a few kilobytes, at most about 80 kB) and a stored one is bounded
 * to read. Not thread-safe: one owner.
 */
public final class ShadowTable {

  /** The most pairs a table holds or reads. */
  public static final int MAX_PAIRS = 512;

  static final int MAX_ENCODED_BYTES = 16 << 20;
  private static final int KIND = 'T';
  private static final int MAX_NAME_BYTES = 64;

  private final TreeMap<PairKey, PairStats> pairs = new TreeMap<>();

  /** An empty table. */
  public ShadowTable() {}

  /**
   * Counts a sample in its pair.
   *
   * @return false (and nothing counted) when the sample's pair is new and the table already holds
   *     {@link #MAX_PAIRS} pairs
   */
  public boolean record(ShadowSample sample) {
    PairKey key = sample.key();
    PairStats s = pairs.get(key);
    if (s == null) {
      if (pairs.size() >= MAX_PAIRS) {
        return false;
      }
      s = new PairStats();
      pairs.put(key, s);
    }
    s.record(sample);
    return true;
  }

  /**
   * Adds every pair of {@code other} to this table (exactly; {@code other} is not changed).
   *
   * @throws IllegalStateException (and nothing added) when the union would hold more than
   *     {@link #MAX_PAIRS} pairs
   */
  public void add(ShadowTable other) {
    long added = other.pairs.keySet().stream().filter(k -> !pairs.containsKey(k)).count();
    if (pairs.size() + added > MAX_PAIRS) {
      throw new IllegalStateException("merging would hold more than " + MAX_PAIRS + " shadow pairs");
    }
    for (Map.Entry<PairKey, PairStats> e : other.pairs.entrySet()) {
      pairs.computeIfAbsent(e.getKey(), k -> new PairStats()).add(e.getValue());
    }
  }

  /** A new table of both (neither is changed). */
  public static ShadowTable merged(ShadowTable a, ShadowTable b) {
    ShadowTable m = a.copy();
    m.add(b);
    return m;
  }

  /** An independent copy. */
  public ShadowTable copy() {
    ShadowTable c = new ShadowTable();
    c.add(this);
    return c;
  }

  /** Drops the pairs {@code filter} accepts (for instance those of a rung the manifest no longer has). */
  public void removeIf(Predicate<PairKey> filter) {
    pairs.keySet().removeIf(filter);
  }

  /** The pairs held, in order. */
  public Set<PairKey> keys() {
    return Set.copyOf(pairs.keySet());
  }

  /** A copy of one pair's figures. */
  public Optional<PairStats> get(PairKey key) {
    return Optional.ofNullable(pairs.get(key)).map(PairStats::copy);
  }

  /** How many pairs are held. */
  public int size() {
    return pairs.size();
  }

  /** Whether no pair is held. */
  public boolean isEmpty() {
    return pairs.isEmpty();
  }

  /** Every pair's summary, in {@link PairKey} order. */
  public List<PairSummary> summaries() {
    List<PairSummary> out = new ArrayList<>(pairs.size());
    pairs.forEach((k, s) -> out.add(s.summary(k)));
    return out;
  }

  /** The body of {@code GET /v1/shadow} ({@link ShadowView}). */
  public Map<String, Object> view() {
    return ShadowView.toMap(summaries());
  }

  // ---- durable form ----------------------------------------------------------------------------

  /**
   * The durable form: a version byte ({@link PairStats#VERSION}), a kind byte, the number of pairs,
   * then each pair's three names and its {@link PairStats} figures, in key order (so equal tables
   * encode to equal bytes).
   */
  public byte[] encode() {
    Codec.Writer w = new Codec.Writer();
    w.byteValue(PairStats.VERSION);
    w.byteValue(KIND);
    w.varlong(pairs.size());
    for (Map.Entry<PairKey, PairStats> e : pairs.entrySet()) {
      w.name(e.getKey().served());
      w.name(e.getKey().shadow());
      w.name(e.getKey().intent());
      e.getValue().writeTo(w);
    }
    return w.bytes();
  }

  /** {@link #encode()} in Base64 (RFC 4648, with padding). */
  public String encodeToString() {
    return Base64.getEncoder().encodeToString(encode());
  }

  /**
   * Reads {@link #encode()}'s form back.
   *
   * @throws ShadowFormatException naming the problem, for anything that is not a whole, consistent
   *     table of this version: at most 16 MiB read, {@link #MAX_PAIRS} pairs, each pair once (so at
   *     most about 40 MB allocated, however the input is made)
   */
  public static ShadowTable decode(byte[] bytes) {
    Codec.Reader r = PairStats.open(bytes, MAX_ENCODED_BYTES, KIND, "shadow table");
    int n = (int) r.bounded("pairs", MAX_PAIRS);
    ShadowTable t = new ShadowTable();
    for (int i = 0; i < n; i++) {
      String at = "pairs[" + i + "]";
      PairKey key = new PairKey(r.name(at + ".served", MAX_NAME_BYTES), r.name(at + ".shadow", MAX_NAME_BYTES),
          r.name(at + ".intent", MAX_NAME_BYTES));
      if (t.pairs.containsKey(key)) {
        throw new ShadowFormatException(at + ": the pair is listed twice");
      }
      t.pairs.put(key, PairStats.readFrom(r, at));
    }
    r.end();
    return t;
  }

  /** Reads {@link #encodeToString()}'s form back; fails as {@link #decode(byte[])} does. */
  public static ShadowTable decode(String base64) {
    return decode(PairStats.fromBase64(base64, MAX_ENCODED_BYTES));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShadowTable t && pairs.equals(t.pairs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(pairs);
  }

  @Override
  public String toString() {
    return "ShadowTable[" + pairs.size() + " pairs]";
  }
}
