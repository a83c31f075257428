package dev.georesolver.ops;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scripts/jvm.sh} picks the JVM and collector the launchers use, from its table, among the
 * JDKs it finds: here fake JDK homes (a {@code release} file and a {@code bin/java} script) in a
 * temporary {@code GEO_JVM_ROOT}, with a PATH holding only the tools the script needs, so the
 * machine's own JDKs play no part.
 */
class JvmChoiceTest {

  @TempDir
  Path tmp;
  private Path root;
  private Path path;

  @BeforeEach
  void tools() throws Exception {
    root = Files.createDirectories(tmp.resolve("jvm"));
    path = Files.createDirectories(tmp.resolve("path"));
    for (String tool : List.of("sed", "head", "readlink", "dirname")) {
      Path real = List.of(Path.of("/usr/bin", tool), Path.of("/bin", tool)).stream().filter(Files::isExecutable)
          .findFirst().orElseThrow(() -> new AssertionError(tool + " is missing"));
      Files.createSymbolicLink(path.resolve(tool), real);
    }
  }

  /** A fake JDK home: {@code release} with JAVA_VERSION (none when null), a java printing {@code -version}. */
  private Path jdk(Path under, String dir, String releaseVersion, String printedVersion) throws IOException {
    Path home = Files.createDirectories(under.resolve(dir).resolve("bin"));
    if (releaseVersion != null) {
      Files.writeString(home.getParent().resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + releaseVersion + "\"\n");
    }
    Path java = home.resolve("java");
    Files.writeString(java, "#!/bin/bash\necho 'openjdk version \"" + printedVersion + "\" 2099-01-01' >&2\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return home.getParent();
  }

  /** Runs geo_pick_jvm; returns "exit|name|major|java|flags|why". */
  private String pick(Map<String, String> extra) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c",
        ". scripts/jvm.sh; geo_pick_jvm; rc=$?; echo \"$rc|${GEO_JVM_NAME:-}|${GEO_JVM_MAJOR:-}|${GEO_JVM_JAVA:-}|${GEO_JVM_FLAGS:-}|$GEO_JVM_WHY\"")
        .redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", path.toString());
    env.put("GEO_JVM_ROOT", root.toString());
    env.putAll(extra);
    Process p = pb.start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    return out.substring(out.lastIndexOf('\n') + 1);
  }

  private String pick() throws Exception {
    return pick(Map.of());
  }

  @Test
  @DisplayName("JDK 17 found beside 21 and 25: G1 on 17, the JVM matrix's winner, and the line says why")
  void shouldPreferJdk17G1() throws Exception {
    Path j17 = jdk(root, "java-17", "17.0.15", "17.0.15");
    jdk(root, "jdk-21", "21.0.4", "21.0.4");
    jdk(root, "temurin-25", "25.0.3", "25.0.3");
    String[] r = pick().split("\\|", 6);
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).isEqualTo("g1-17");
    assertThat(r[2]).isEqualTo("17");
    assertThat(r[3]).isEqualTo(j17.resolve("bin/java").toRealPath().toString());
    assertThat(r[4]).isEqualTo("-XX:+UseG1GC");
    assertThat(r[5]).contains("JDK 17").contains("JVM matrix");
  }

  @Test
  @DisplayName("JDK 25 without a 17: its generational ZGC, and the line says why")
  void shouldPreferJdk25ZgcWithout17() throws Exception {
    jdk(root, "jdk-21", "21.0.4", "21.0.4");
    Path j25 = jdk(root, "temurin-25", "25.0.3", "25.0.3");
    String[] r = pick().split("\\|", 6);
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).isEqualTo("zgc-gen");
    assertThat(r[2]).isEqualTo("25");
    assertThat(r[3]).isEqualTo(j25.resolve("bin/java").toRealPath().toString());
    assertThat(r[4]).isEqualTo("-XX:+UseZGC");
    assertThat(r[5]).contains("JDK 25").contains("generational ZGC");
  }

  @Test
  @DisplayName("JDK 21 is the newest and no 17: ZGC with -XX:+ZGenerational (not the default there)")
  void shouldAskForGenerationalZgcOn21() throws Exception {
    jdk(root, "jdk-21", "21.0.4", "21.0.4");
    String[] r = pick().split("\\|", 6);
    assertThat(r[1]).isEqualTo("zgc-gen-21");
    assertThat(r[4]).isEqualTo("-XX:+UseZGC -XX:+ZGenerational");
  }

  @Test
  @DisplayName("only JDK 17: G1")
  void shouldFallBackToG1On17() throws Exception {
    jdk(root, "java-17", "17.0.15", "17.0.15");
    String[] r = pick().split("\\|", 6);
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).isEqualTo("g1-17");
    assertThat(r[2]).isEqualTo("17");
    assertThat(r[4]).isEqualTo("-XX:+UseG1GC");
  }

  @Test
  @DisplayName("GEO_JAVA names the JVM: only that one is considered, even with a JDK 25 about")
  void shouldTakeGeoJava() throws Exception {
    jdk(root, "temurin-25", "25.0.3", "25.0.3");
    Path elsewhere = jdk(tmp, "my-jdk-17", "17.0.2", "17.0.2");
    String[] r = pick(Map.of("GEO_JAVA", elsewhere.toString())).split("\\|", 6);
    assertThat(r[1]).isEqualTo("g1-17");
    assertThat(r[3]).isEqualTo(elsewhere.resolve("bin/java").toRealPath().toString());
    assertThat(r[5]).contains("GEO_JAVA");
    String[] bin = pick(Map.of("GEO_JAVA", elsewhere.resolve("bin/java").toString())).split("\\|", 6);
    assertThat(bin[3]).isEqualTo(r[3]);
  }

  @Test
  @DisplayName("a collector in JAVA_OPTS replaces the row's flags; GEO_JVM_CHOICE forces a row")
  void shouldLetJavaOptsAndChoiceOverride() throws Exception {
    jdk(root, "java-17", "17.0.15", "17.0.15");
    jdk(root, "temurin-25", "25.0.3", "25.0.3");
    String[] opts = pick(Map.of("JAVA_OPTS", "-Xmx1g -XX:+UseParallelGC")).split("\\|", 6);
    assertThat(opts[2]).as("the first row's JVM").isEqualTo("17");
    assertThat(opts[4]).isEmpty();
    assertThat(opts[5]).contains("JAVA_OPTS");
    String[] g1 = pick(Map.of("GEO_JVM_CHOICE", "g1")).split("\\|", 6);
    assertThat(g1[1]).isEqualTo("g1");
    assertThat(g1[2]).as("the newest JDK satisfying the row").isEqualTo("25");
    assertThat(g1[4]).isEqualTo("-XX:+UseG1GC");
  }

  @Test
  @DisplayName("a JDK without a release file is read from java -version; JAVA_HOME counts; too old ones do not")
  void shouldReadVersionFromJavaAndJavaHome() throws Exception {
    jdk(root, "jdk-11", "11.0.20", "11.0.20");
    jdk(root, "no-release", null, "21.0.1");
    String[] r = pick().split("\\|", 6);
    assertThat(r[1]).isEqualTo("zgc-gen-21");
    assertThat(r[2]).isEqualTo("21");
    Path home = jdk(tmp, "home-25", "25", "25");
    Map<String, String> env = new HashMap<>();
    env.put("JAVA_HOME", home.toString());
    assertThat(pick(env).split("\\|", 6)[2]).isEqualTo("25");
  }

  @Test
  @DisplayName("no usable JDK: status 1 and a message saying what to install")
  void shouldSayWhenNothingFits() throws Exception {
    assertThat(pick()).startsWith("1|").contains("install a JDK 17");
    jdk(root, "jdk-11", "11.0.20", "11.0.20");
    assertThat(pick()).startsWith("1|").contains("found majors: 11");
  }
}
