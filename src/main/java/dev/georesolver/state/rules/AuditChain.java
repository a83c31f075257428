package dev.georesolver.state.rules;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.io.IOException;
import java.util.HexFormat;

/**
 * The per-tenant hash chain. A record's {@code hash} is the lower-case hex SHA-256 of
 * {@code prev_hash + "\n" + seq + "\n" + body}, where {@code body} is the record's canonical JSON
 * (keys sorted, no white space, nulls left out: built by the audit package) and {@code prev_hash} the hash
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
    private AuditGaps.Tally gaps = AuditGaps.Tally.NONE;

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
      AuditGaps.Gap g = AuditGaps.of(r.body());
      if (g != null) {
        gaps = gaps.plus(g);
      }
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
      Top body = Top.of(r.body());
      if (body == null) {
        return "body is not JSON";
      }
      if (!tenant.equals(body.tenant())) {
        return "record belongs to tenant " + body.tenant() + ", not this partition";
      }
      if (r.id() != null && !r.id().equals(body.id())) {
        return "the stored id does not match the record's";
      }
      return null;
    }

    /** Records read so far. */
    public long count() {
      return count;
    }

    /** The gap records among the good records read so far. */
    public AuditGaps.Tally gaps() {
      return gaps;
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
      Top body = Top.of(r.body());
      return body == null || body.id() == null ? "?" : body.id();
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

  private static final JsonFactory JSON = new JsonFactory();

  /** The two top-level members of a record body the verifier checks; null when the body is not a JSON object. */
  private record Top(String tenant, String id) {
    static Top of(String body) {
      try (JsonParser p = JSON.createParser(body)) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          return null;
        }
        String tenant = null;
        String id = null;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
          if (t != JsonToken.FIELD_NAME) {
            return null;
          }
          String name = p.currentName();
          JsonToken v = p.nextToken();
          if (v == JsonToken.VALUE_STRING && "tenant".equals(name)) {
            tenant = p.getText();
          } else if (v == JsonToken.VALUE_STRING && "id".equals(name)) {
            id = p.getText();
          } else {
            p.skipChildren();
          }
        }
        return p.nextToken() == null ? new Top(tenant, id) : null;
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }
  }
}
