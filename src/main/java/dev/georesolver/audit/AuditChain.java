package dev.georesolver.audit;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The per-tenant hash chain. A record's {@code hash} is the lower-case hex SHA-256 of
 * {@code prev_hash + "\n" + seq + "\n" + body}, where {@code body} is the record's canonical JSON
 * ({@link #canonical}: keys sorted, no white space, nulls left out) and {@code prev_hash} the hash
 * of the record before it in the same tenant's chain ({@link #GENESIS} for the first; the
 * retention anchor's hash once a prefix was removed). Sequence numbers start at 1 and have no gaps,
 * so a removed, inserted, reordered or altered record breaks the chain at that record.
 *
 * <p>Pure and thread-safe; {@link Verifier} is not (one per chain walked).
 */
public final class AuditChain {

  /** The previous hash of a tenant's first record: 64 zeros. */
  public static final String GENESIS = "0".repeat(64);

  private AuditChain() {}

  /** The hash of the record {@code body} at {@code seq} after {@code prevHash}. */
  public static String hash(String prevHash, long seq, String body) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(prevHash.getBytes(StandardCharsets.US_ASCII));
      d.update((byte) '\n');
      d.update(Long.toString(seq).getBytes(StandardCharsets.US_ASCII));
      d.update((byte) '\n');
      d.update(body.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  /**
   * A stored record as it is served ({@code GET /v1/audit}): its body's fields plus {@code seq},
   * {@code prev_hash} and {@code hash}. A body that is not JSON (a damaged store) is served as
   * {@code {"unreadable": body}} so a reader still sees it.
   */
  public static JsonObject served(String body, long seq, String prevHash, String hash) {
    JsonObject j;
    try {
      j = new JsonObject(body);
    } catch (RuntimeException e) {
      j = new JsonObject().put("unreadable", body);
    }
    return j.put("seq", seq).put("prev_hash", prevHash).put("hash", hash);
  }

  /**
   * The canonical JSON of {@code o}: object keys in ascending code-point order at every depth, no
   * white space, null members left out, strings escaped as JSON does, numbers as Java prints them
   * ({@code 12}, {@code 0.97}).
   */
  public static String canonical(JsonObject o) {
    StringBuilder sb = new StringBuilder(256);
    write(sb, o);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object v) {
    if (v instanceof JsonObject o) {
      writeObject(sb, o.getMap());
    } else if (v instanceof Map<?, ?> m) {
      writeObject(sb, m);
    } else if (v instanceof JsonArray a) {
      writeArray(sb, a.getList());
    } else if (v instanceof List<?> l) {
      writeArray(sb, l);
    } else if (v instanceof String s) {
      sb.append(Json.encode(s));
    } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
      sb.append("null");
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else if (v == null) {
      sb.append("null");
    } else {
      sb.append(Json.encode(v.toString()));
    }
  }

  private static void writeObject(StringBuilder sb, Map<?, ?> m) {
    List<String> keys = new ArrayList<>(m.size());
    m.forEach((k, val) -> {
      if (val != null) {
        keys.add(k.toString());
      }
    });
    Collections.sort(keys);
    sb.append('{');
    for (int i = 0; i < keys.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(Json.encode(keys.get(i))).append(':');
      write(sb, m.get(keys.get(i)));
    }
    sb.append('}');
  }

  private static void writeArray(StringBuilder sb, List<?> l) {
    sb.append('[');
    for (int i = 0; i < l.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      write(sb, l.get(i));
    }
    sb.append(']');
  }

  /**
   * One stored record as the verifier reads it.
   *
   * @param seq its sequence number in the tenant's chain
   * @param id the record's id as the store indexes it (null when the store keeps it only in the body)
   * @param prevHash the previous hash it was stored with
   * @param hash the hash it was stored with
   * @param body its canonical JSON
   */
  public record Stored(long seq, String id, String prevHash, String hash, String body) {}

  /**
   * Where a tenant's chain starts: after {@code seq} (0 for none removed) with {@code hash}.
   *
   * @param seq the last removed record's sequence number, or 0
   * @param hash its hash, or {@link #GENESIS}
   */
  public record Anchor(long seq, String hash) {
    /** Nothing removed. */
    public static final Anchor NONE = new Anchor(0, GENESIS);
  }

  /**
   * Walks one tenant's chain in sequence order, recomputing every hash. Feed it each record with
   * {@link #accept}; the first broken one is kept with why, and the rest are only counted.
   */
  public static final class Verifier {
    private final String tenant;
    private long expectSeq;
    private String running;
    private long count;
    private Break broken;

    /** A walk of {@code tenant}'s chain starting after {@code anchor}. */
    public Verifier(String tenant, Anchor anchor) {
      this.tenant = tenant;
      this.expectSeq = anchor.seq() + 1;
      this.running = anchor.hash();
    }

    /** Checks the next record; false once the chain is broken (here or earlier). */
    public boolean accept(Stored r) {
      count++;
      if (broken != null) {
        return false;
      }
      String why = problem(r);
      if (why != null) {
        broken = new Break(tenant, r.seq(), idOf(r), why);
        return false;
      }
      expectSeq = r.seq() + 1;
      running = r.hash();
      return true;
    }

    private String problem(Stored r) {
      if (r.seq() != expectSeq) {
        return r.seq() > expectSeq ? "records " + expectSeq + (r.seq() - 1 > expectSeq ? "-" + (r.seq() - 1) : "") + " are missing"
            : "sequence number " + r.seq() + " out of order (expected " + expectSeq + ")";
      }
      if (!running.equals(r.prevHash())) {
        return "prev_hash does not match the hash of the record before it";
      }
      if (!hash(r.prevHash(), r.seq(), r.body()).equals(r.hash())) {
        return "hash does not match the record's content";
      }
      JsonObject body;
      try {
        body = new JsonObject(r.body());
      } catch (RuntimeException e) {
        return "body is not JSON";
      }
      if (!tenant.equals(body.getValue("tenant"))) {
        return "record belongs to tenant " + body.getValue("tenant") + ", not this partition";
      }
      if (r.id() != null && !r.id().equals(body.getValue("id"))) {
        return "the stored id does not match the record's";
      }
      return null;
    }

    /** Records read so far. */
    public long count() {
      return count;
    }

    /** The first broken record, or null when the chain holds so far. */
    public Break broken() {
      return broken;
    }

    /** The head: the last good record's sequence number and hash. */
    public Anchor head() {
      return new Anchor(expectSeq - 1, running);
    }

    private static String idOf(Stored r) {
      if (r.id() != null) {
        return r.id();
      }
      try {
        return new JsonObject(r.body()).getString("id", "?");
      } catch (RuntimeException e) {
        return "?";
      }
    }
  }

  /**
   * The first broken record of a chain.
   *
   * @param tenant whose chain
   * @param seq its sequence number
   * @param id its id ({@code ?} when unreadable)
   * @param why what does not hold
   */
  public record Break(String tenant, long seq, String id, String why) {}
}
