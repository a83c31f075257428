package dev.georesolver.tier;

import dev.georesolver.config.TlsConfig;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509KeyManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;

/**
 * A tier's TLS material as its files held it when read: the client certificate and key it presents,
 * the authorities it trusts. Built on a worker ({@link #read} reads files and parses keys), then
 * handed to the tier's context. Immutable; {@link #toString()} names the certificate, never the key.
 *
 * <p>A pair is taken only when it can be used: the PEM parses, and the key is the certificate's (a
 * test signature made with the key verifies with the certificate), so a rotation caught between
 * writing the new certificate and the new key keeps the old pair until the key follows.
 */
final class TlsMaterial {

  private final PemKeyCertOptions keyCert;
  private final PemTrustOptions trust;
  private final String described;

  private TlsMaterial(PemKeyCertOptions keyCert, PemTrustOptions trust, String described) {
    this.keyCert = keyCert;
    this.trust = trust;
    this.described = described;
  }

  /**
   * Reads and checks a tier's TLS files. Blocking: call on a worker.
   *
   * @throws TlsMaterialException naming the file and what is wrong with it (never its contents)
   */
  static TlsMaterial read(Vertx vertx, TlsConfig cfg) {
    PemKeyCertOptions keyCert = null;
    String described = "no client certificate";
    if (cfg.certFile() != null) {
      keyCert = new PemKeyCertOptions()
          .setCertValue(file(TlsConfig.CERT_FILE.key(), cfg.certFile()))
          .setKeyValue(file(TlsConfig.KEY_FILE.key(), cfg.keyFile()));
      described = checkPair(vertx, keyCert, cfg);
    }
    PemTrustOptions trust = null;
    if (cfg.caFile() != null) {
      trust = new PemTrustOptions().addCertValue(file(TlsConfig.CA_FILE.key(), cfg.caFile()));
      try {
        trust.getTrustManagerFactory(vertx);
      } catch (Exception e) {
        throw new TlsMaterialException("ca_file " + cfg.caFile() + " holds no usable PEM certificate: " + reason(e));
      }
    }
    return new TlsMaterial(keyCert, trust, described);
  }

  /** The client options with this material (and SNI and host-name checks on). */
  HttpClientOptions applyTo(HttpClientOptions o) {
    o.setForceSni(true).setVerifyHost(true);
    if (keyCert != null) {
      o.setKeyCertOptions(keyCert);
    }
    if (trust != null) {
      o.setTrustOptions(trust);
    }
    return o;
  }

  /** The same material as the client's SSL options, to swap in while it runs. */
  ClientSSLOptions sslOptions() {
    ClientSSLOptions o = new ClientSSLOptions().setHostnameVerificationAlgorithm("HTTPS");
    if (keyCert != null) {
      o.setKeyCertOptions(keyCert);
    }
    if (trust != null) {
      o.setTrustOptions(trust);
    }
    return o;
  }

  private static Buffer file(String key, String path) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(Path.of(path))) {
      bytes = in.readNBytes(TlsConfig.MAX_FILE_BYTES + 1);
    } catch (IOException | RuntimeException e) {
      throw new TlsMaterialException(key + " " + path + " is not readable");
    }
    if (bytes.length > TlsConfig.MAX_FILE_BYTES) {
      throw new TlsMaterialException(key + " " + path + " is larger than " + TlsConfig.MAX_FILE_BYTES + " bytes");
    }
    if (bytes.length == 0) {
      throw new TlsMaterialException(key + " " + path + " is empty");
    }
    return Buffer.buffer(bytes);
  }

  /** Parses the pair and proves the key is the certificate's; describes the certificate. */
  private static String checkPair(Vertx vertx, PemKeyCertOptions keyCert, TlsConfig cfg) {
    KeyManagerFactory kmf;
    try {
      kmf = keyCert.getKeyManagerFactory(vertx);
    } catch (Exception e) {
      throw new TlsMaterialException("cert_file " + cfg.certFile() + " / key_file " + cfg.keyFile() + " do not parse as PEM: " + reason(e));
    }
    for (KeyManager km : kmf.getKeyManagers()) {
      if (km instanceof X509KeyManager x) {
        for (String type : new String[] {"RSA", "EC", "EdDSA", "Ed25519", "RSASSA-PSS"}) {
          String[] aliases = x.getClientAliases(type, null);
          if (aliases != null && aliases.length > 0) {
            X509Certificate[] chain = x.getCertificateChain(aliases[0]);
            PrivateKey key = x.getPrivateKey(aliases[0]);
            if (chain == null || chain.length == 0 || key == null) {
              break;
            }
            if (!matches(key, chain[0])) {
              throw new TlsMaterialException("key_file " + cfg.keyFile() + " is not the key of the certificate in cert_file "
                  + cfg.certFile());
            }
            return chain[0].getSubjectX500Principal().getName() + ", valid until " + chain[0].getNotAfter().toInstant();
          }
        }
      }
    }
    throw new TlsMaterialException("cert_file " + cfg.certFile() + " / key_file " + cfg.keyFile() + " hold no certificate and key pair");
  }

  /** Whether a signature made with {@code key} verifies with the certificate's public key. */
  private static boolean matches(PrivateKey key, X509Certificate cert) {
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "EdDSA", "Ed25519" -> "Ed25519";
      default -> null;
    };
    if (algorithm == null) {
      // A key type without a plain signature scheme here (RSASSA-PSS): the TLS handshake will tell.
      return true;
    }
    try {
      byte[] probe = "georesolver tls pair check".getBytes(StandardCharsets.US_ASCII);
      Signature sign = Signature.getInstance(algorithm);
      sign.initSign(key);
      sign.update(probe);
      byte[] signature = sign.sign();
      Signature verify = Signature.getInstance(algorithm);
      verify.initVerify(cert.getPublicKey());
      verify.update(probe);
      return verify.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static String reason(Exception e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m.length() > 160 ? m.substring(0, 160) : m;
  }

  @Override
  public String toString() {
    return "TlsMaterial[" + described + (trust != null ? ", own trusted authorities" : ", JVM trust store") + "]";
  }

  /** TLS material that cannot be used, saying which file and why; no stack trace (a configuration fault). */
  static final class TlsMaterialException extends RuntimeException {
    TlsMaterialException(String message) {
      super(message, null, false, false);
    }
  }
}
