package dev.georesolver.state;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.Secret;
import dev.georesolver.state.rules.AuditSeal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The audit trail's keys, derived from one deployment secret that is never stored with the data
 * ({@link AuditSeal}): the anchor key signs anchors and opened markers, the id key turns a record's
 * idempotency key into a keyed hash. Immutable and thread-safe.
 *
 * <p>Where the secret comes from, in order: {@code audit.key_env} (default {@code GEO_AUDIT_KEY}),
 * {@code audit.key_file}, else the file {@value #FILE} beside the state file, which the resolver
 * generates (256 random bits, owner-only permissions) at its first start. A verifier never generates
 * one ({@link #forVerify}): without the secret it cannot check a signature, and says so.
 */
public final class AuditKey {

  /** The generated secret's file name, in the state file's directory. */
  public static final String FILE = "audit.key";

  /** No secret: nothing is signed and nothing checks as signed. */
  public static final AuditKey NONE = new AuditKey(null, null, "none");

  private final byte[] anchorKey;
  private final byte[] idKey;
  private final String source;

  private AuditKey(byte[] anchorKey, byte[] idKey, String source) {
    this.anchorKey = anchorKey;
    this.idKey = idKey;
    this.source = source;
  }

  /** The keys derived from {@code secret}; {@code source} names where it came from (never the value). */
  public static AuditKey of(String secret, String source) {
    byte[] s = secret.getBytes(StandardCharsets.UTF_8);
    return new AuditKey(AuditSeal.derive(s, "georesolver audit anchor"), AuditSeal.derive(s, "georesolver audit id"), source);
  }

  /**
   * The resolver's keys: the configured secret, else the generated file beside the state file,
   * created now when missing. Blocking (file I/O): call at start, off the event loop.
   *
   * @throws StateStoreException when the file can be neither read nor created
   */
  public static AuditKey forServe(Manifest m) {
    return configured(m).orElseGet(() -> fromFile(generatedFile(m), true));
  }

  /** The verifier's keys: the configured secret, else the generated file when it is there, else {@link #NONE}. Blocking. */
  public static AuditKey forVerify(Manifest m) {
    return configured(m).orElseGet(() -> Files.isRegularFile(generatedFile(m)) ? fromFile(generatedFile(m), false) : NONE);
  }

  private static java.util.Optional<AuditKey> configured(Manifest m) {
    return m.auditKey().map(Secret::reveal).map(s -> of(s, "audit.key_env or audit.key_file"));
  }

  /** Where the generated secret is kept: {@value #FILE} in the state file's directory. */
  public static Path generatedFile(Manifest m) {
    Path state = Path.of(m.state().path()).toAbsolutePath();
    return state.getParent() == null ? Path.of(FILE) : state.getParent().resolve(FILE);
  }

  private static AuditKey fromFile(Path f, boolean create) {
    try {
      if (create && !Files.exists(f)) {
        byte[] raw = new byte[32];
        new SecureRandom().nextBytes(raw);
        Files.createDirectories(f.toAbsolutePath().getParent());
        try {
          Files.writeString(f, HexFormat.of().formatHex(raw) + "\n", StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
          try {
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
          } catch (UnsupportedOperationException notPosix) {
            // a file system without POSIX permissions keeps the directory's
          }
        } catch (FileAlreadyExistsException raced) {
          // another resolver on the same directory made it first: use that one
        }
      }
      String s = Files.readString(f, StandardCharsets.UTF_8).strip();
      if (s.isEmpty()) {
        throw new StateStoreException("the audit key file " + f + " is empty");
      }
      return of(s, f.toString());
    } catch (IOException e) {
      throw new StateStoreException("cannot read or create the audit key file " + f + ": " + e.getMessage(), e);
    }
  }

  /** Whether there is a secret. */
  public boolean present() {
    return anchorKey != null;
  }

  /** Where the secret came from, for log lines (never the value). */
  public String source() {
    return source;
  }

  /** The key that signs anchors and opened markers; null for {@link #NONE}. */
  byte[] anchorKey() {
    return anchorKey;
  }

  /** A record body with its idempotency key keyed; unchanged for {@link #NONE}. */
  String keyIdempotency(String body) {
    return idKey == null ? body : AuditSeal.keyIdempotency(idKey, body);
  }

  @Override
  public String toString() {
    return "AuditKey[" + source + "]";
  }
}
