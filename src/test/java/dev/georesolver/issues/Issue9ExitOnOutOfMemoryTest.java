package dev.georesolver.issues;

import dev.georesolver.support.Tools;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 2: every launcher runs the JVM with -XX:+ExitOnOutOfMemoryError, so running out of memory ends the process instead of leaving a zombie that serves nothing. */
class Issue9ExitOnOutOfMemoryTest {

  private static final String FLAG = "-XX:+ExitOnOutOfMemoryError";

  @Test
  @DisplayName("scripts/run.sh starts java with the flag before -jar, and passes JAVA_OPTS and the arguments on")
  void runScriptPassesTheFlag() throws Exception {
    Path bin = Files.createTempDirectory("launcher-bin");
    Path seen = bin.resolve("java-args");
    // Stand-ins for mvn (nothing to build) and a JDK (its java records its arguments), picked by GEO_JAVA.
    write(bin.resolve("mvn"), "#!/bin/sh\nexit 0\n");
    Path jdk = bin.resolve("jdk");
    Files.createDirectories(jdk.resolve("bin"));
    Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"17.0.9\"\n");
    write(jdk.resolve("bin/java"), "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + seen + "'\n");
    Tools.Result r = Tools.run(List.of("bash", "scripts/run.sh", "--port", "0"),
        Map.of("PATH", bin + ":" + System.getenv("PATH"), "JAVA_OPTS", "-Xmx300m", "GEO_JAVA", jdk.toString()), 30);
    assertThat(r.exit()).as(r.output()).isZero();
    List<String> args = Files.readAllLines(seen);
    assertThat(args).containsSubsequence(FLAG, "-Xmx300m", "-jar", "target/georesolver.jar", "--port", "0");
    assertThat(args.indexOf(FLAG)).isLessThan(args.indexOf("-jar"));
  }

  @Test
  @DisplayName("the container and the local stack start the JVM with the flag, and the running guide says to for java -jar")
  void everyOtherLauncherHasTheFlag() throws Exception {
    assertThat(Files.readString(Path.of("Dockerfile"))).containsPattern("(?m)^ENTRYPOINT \\[\"/app/jvm.sh\", \"exec\", \"" + Pattern.quote(FLAG) + "\"");
    String stack = Files.readString(Path.of("scripts/stack.sh"));
    assertThat(stack.lines().filter(l -> l.contains("local jvm=")).toList()).singleElement().asString().contains(FLAG);
    assertThat(stack.lines().filter(l -> l.contains("echo \"$jvm ")).toList()).as("the classpath and the jar command lines")
        .hasSize(2).allSatisfy(l -> assertThat(l).containsAnyOf("dev.georesolver.cli.Main", "georesolver.jar"));
    assertThat(stack).as("no resolver command line outside the one built on $jvm").doesNotContain("echo \"java ");
    assertThat(Files.readString(Path.of("docs/operating.md"))).contains("java " + FLAG + " -jar target/georesolver.jar");
  }

  private static void write(Path p, String content) throws Exception {
    Files.writeString(p, content);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
