package dev.georesolver.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tier's own TLS material (manifest {@code routing.tiers[].tls}): the client certificate it
 * presents (mutual TLS), the authorities it trusts, and the name it expects the provider's
 * certificate to carry. Immutable and thread-safe.
 *
 * <pre>{@code
 * tls: { cert_file: "/etc/georesolver/tier1.pem", key_file: "/etc/georesolver/tier1.key",
 *        ca_file: "/etc/georesolver/provider-ca.pem", server_name: "geocoder.internal" }
 * }</pre>
 *
 * <p>PEM files; each tier's connections carry only the material named here, never another tier's.
 * The files are re-read when they change, so a certificate or key is rotated without a restart
 * (a new pair takes effect once the key matches the certificate).
 */
public final class TlsConfig extends Settings {

  /** The largest TLS file read, bytes: a certificate chain is a few KiB. */
  public static final int MAX_FILE_BYTES = 1024 * 1024;

  /** The keys of {@code tls:}. */
  public static final Section<TlsConfig> SECTION = new Section<>(TlsConfig::new);

  /** The client certificate (PEM, the chain after it if any), presented to the provider; with {@code key_file}. */
  public static final Field<String> CERT_FILE = SECTION.string("cert_file");

  /** The client certificate's private key (PEM: PKCS#8, or PKCS#1 RSA / SEC1 EC); with {@code cert_file}. */
  public static final Field<String> KEY_FILE = SECTION.string("key_file");

  /** The certificate authorities trusted for the provider's certificate (PEM); default the JVM's trust store. */
  public static final Field<String> CA_FILE = SECTION.string("ca_file");

  /**
   * The provider's name as its certificate carries it: sent as SNI and as the {@code Host}, and
   * checked against the certificate, while the connection goes to the endpoint's host; default the
   * endpoint's host.
   */
  public static final Field<String> SERVER_NAME = SECTION.string("server_name");

  static {
    SECTION.rule((v, at) -> {
      boolean cert = v.get(CERT_FILE) != null;
      boolean key = v.get(KEY_FILE) != null;
      if (cert != key && !at.reported(CERT_FILE.key()) && !at.reported(KEY_FILE.key())) {
        at.problem(cert ? KEY_FILE.key() : CERT_FILE.key(), "is required with " + (cert ? CERT_FILE.key() : KEY_FILE.key()));
      }
    });
  }

  private TlsConfig(Settings read) {
    super(read);
  }

  /** See {@link #CERT_FILE}; null without a client certificate. */
  public String certFile() {
    return get(CERT_FILE);
  }

  /** See {@link #KEY_FILE}; null without a client certificate. */
  public String keyFile() {
    return get(KEY_FILE);
  }

  /** See {@link #CA_FILE}; null for the JVM's trust store. */
  public String caFile() {
    return get(CA_FILE);
  }

  /** See {@link #SERVER_NAME}; null for the endpoint's host. */
  public String serverName() {
    return get(SERVER_NAME);
  }

  /** The files named, by their manifest key, in declaration order; unmodifiable. */
  public Map<String, String> files() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Field<String> f : List.of(CERT_FILE, KEY_FILE, CA_FILE)) {
      if (get(f) != null) {
        out.put(f.key(), get(f));
      }
    }
    return Collections.unmodifiableMap(out);
  }
}
