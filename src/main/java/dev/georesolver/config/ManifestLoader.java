package dev.georesolver.config;

import dev.georesolver.normalize.IdempotencyKey;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and validates {@code conf/manifest.yaml}, and reads each enabled tier's credential and each
 * tenant's referenced keys once.
 *
 * <p>Validation collects every problem, each with its path, before refusing: an operator fixes the
 * file once, not once per problem. Unknown fields are problems too, so a typo is never silently
 * ignored, and so is a key given twice. What each block holds and checks is declared by its
 * section type ({@link Manifest#SECTION} and the ones below it). Blocking file I/O (the manifest,
 * credential files): call at start-up, before or off the event loop.
 */
public final class ManifestLoader {

  private ManifestLoader() {}

  /**
   * Loads a manifest file.
   *
   * @param env the process environment ({@code MANIFEST_GIT_SHA}, credential variables)
   * @throws ManifestException listing every problem
   * @throws IOException when the file cannot be read
   */
  public static Manifest load(Path file, Map<String, String> env) throws ManifestException, IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), env);
  }

  /**
   * Parses and validates manifest text, then reads the credentials of its tiers: a tier whose
   * credential is unset, unreadable or empty is left out of the ladder (with why), the others
   * carry the secret read here ({@link Manifest#secret}).
   */
  public static Manifest parse(String yaml, Map<String, String> env) throws ManifestException {
    Problems problems = new Problems();
    Map<String, Object> top = Section.mapping(yaml(yaml), "manifest", problems);
    if (top == null) {
      throw problems.exception();
    }
    Settings root = Manifest.SECTION.read(top, "", null, problems);
    if (!problems.isEmpty()) {
      throw problems.exception();
    }
    Map<String, Secret> secrets = new LinkedHashMap<>();
    Map<String, String> disabled = new LinkedHashMap<>();
    for (TierConfig t : root.get(Manifest.ROUTING).tiers()) {
      if (t.credential() != null) {
        Secret.Lookup found = Secret.lookup(t.credential(), env);
        if (found.secret() != null) {
          secrets.put(t.name(), found.secret());
        } else {
          disabled.put(t.name(), found.missing());
        }
      }
      String tls = t.tls() == null ? null : unreadableTlsFile(t.tls());
      if (tls != null) {
        disabled.putIfAbsent(t.name(), tls);
      }
    }
    Map<String, List<KeyDigest>> keys = new LinkedHashMap<>();
    Map<String, List<String>> missing = new LinkedHashMap<>();
    List<TenantConfig> tenants = root.get(Manifest.TENANTS);
    if (tenants != null) {
      readTenantKeys(tenants, env, keys, missing, problems);
      if (!problems.isEmpty()) {
        throw problems.exception();
      }
    }
    Secret auditKey = auditKey(root.get(Manifest.AUDIT), env, problems);
    if (!problems.isEmpty()) {
      throw problems.exception();
    }
    String sha = IdempotencyKey.sha256Hex(yaml);
    String gitSha = env.get("MANIFEST_GIT_SHA");
    String revision = sha.substring(0, 12) + (gitSha == null || gitSha.isBlank() ? "" : "-g" + gitSha.trim());
    return new Manifest(root, revision, sha, secrets, disabled, keys, missing, auditKey);
  }

  /**
   * The audit trail's deployment secret: the variable {@code audit.key_env} when set, else the file
   * {@code audit.key_file} when given (one that cannot be read is a problem: the trail would be
   * signed with another key), else null.
   */
  private static Secret auditKey(AuditConfig audit, Map<String, String> env, Problems problems) {
    String v = env.get(audit.keyEnv());
    if (v != null && !v.isBlank()) {
      return Secret.of(v.strip());
    }
    if (audit.keyFile() == null) {
      return null;
    }
    Secret.Lookup found = Secret.lookup(null, audit.keyFile(), "audit key", env);
    if (found.secret() == null) {
      problems.add(Manifest.AUDIT.key() + "." + AuditConfig.KEY_FILE.key(), found.missing());
    }
    return found.secret();
  }

  /**
   * Why a tier's TLS files cannot be used (naming the file), or null when each is a readable file
   * of at most {@value TlsConfig#MAX_FILE_BYTES} bytes. Their contents are read and checked by the tier
   * when it starts, and again whenever they change.
   */
  private static String unreadableTlsFile(TlsConfig tls) {
    for (Map.Entry<String, String> f : tls.files().entrySet()) {
      try {
        Path p = Path.of(f.getValue());
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
          return "tls " + f.getKey() + " " + f.getValue() + " is not readable";
        }
        if (Files.size(p) > TlsConfig.MAX_FILE_BYTES) {
          return "tls " + f.getKey() + " " + f.getValue() + " is larger than " + TlsConfig.MAX_FILE_BYTES + " bytes";
        }
      } catch (IOException | java.nio.file.InvalidPathException e) {
        return "tls " + f.getKey() + " " + f.getValue() + " is not readable";
      }
    }
    return null;
  }

  /**
   * Reads every tenant's keys once: a written hash as is, a referenced key hashed and forgotten. A
   * key that cannot be read is left out, with why (a tenant with none left can only be refused); the
   * same key serving two tenants is a problem, since a request could not say which it is.
   */
  private static void readTenantKeys(List<TenantConfig> tenants, Map<String, String> env, Map<String, List<KeyDigest>> keys,
      Map<String, List<String>> missing, Problems problems) {
    Map<KeyDigest, String> owners = new LinkedHashMap<>();
    for (int i = 0; i < tenants.size(); i++) {
      TenantConfig t = tenants.get(i);
      List<KeyDigest> usable = new ArrayList<>();
      for (int k = 0; k < t.keys().size(); k++) {
        TenantKeyConfig key = t.keys().get(k);
        String at = Manifest.TENANTS.key() + "[" + i + "]." + TenantConfig.KEYS.key() + "[" + k + "]";
        KeyDigest d;
        if (key.sha256() != null) {
          d = KeyDigest.ofHex(key.sha256());
        } else {
          Secret.Lookup found = Secret.lookup(key.env(), key.file(), "key", env);
          if (found.secret() == null) {
            missing.computeIfAbsent(t.id(), x -> new ArrayList<>()).add(at + ": " + found.missing());
            continue;
          }
          d = KeyDigest.of(found.secret().reveal());
        }
        String owner = owners.entrySet().stream().filter(e -> e.getKey().sameAs(d)).map(Map.Entry::getValue).findFirst().orElse(null);
        if (owner != null && !owner.equals(t.id())) {
          problems.add(at, "is the same key as one of tenant '" + owner + "': a key must name one tenant");
          continue;
        }
        owners.put(d, t.id());
        usable.add(d);
      }
      keys.put(t.id(), usable);
    }
  }

  /** The YAML document, refusing a key given twice (the second would otherwise silently win). */
  static Object yaml(String text) throws ManifestException {
    try {
      LoaderOptions options = new LoaderOptions();
      options.setAllowDuplicateKeys(false);
      return new Yaml(new SafeConstructor(options)).load(text);
    } catch (YAMLException e) {
      throw new ManifestException(List.of("not valid YAML: " + e.getMessage().replace('\n', ' ')));
    }
  }

  /** Named entries of one section written in code (built-in defaults); a problem is a programming error. */
  static <S extends Settings> Map<String, S> entries(Section<S> section, String yaml) {
    Problems problems = new Problems();
    Map<String, S> out;
    try {
      out = Kinds.map(section, "is empty").read(yaml(yaml), "", problems);
    } catch (ManifestException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    if (!problems.isEmpty()) {
      throw new IllegalStateException(problems.exception().getMessage());
    }
    return out;
  }
}
