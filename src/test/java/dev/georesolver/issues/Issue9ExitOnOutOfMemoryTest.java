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
    // Stand-ins for mvn (nothing to build) and java (records its arguments).
    write(bin.resolve("mvn"), "#!/bin/sh\nexit 0\n");
    write(bin.resolve("java"), "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + seen + "'\n");
    Tools.Result r = Tools.run(List.of("bash", "scripts/run.sh", "--port", "0"),
        Map.of("PATH", bin + ":" + System.getenv("PATH"), "JAVA_OPTS", "-Xmx300m"), 30);
    assertThat(r.exit()).as(r.output()).isZero();
    List<String> args = Files.readAllLines(seen);
    assertThat(args).containsSubsequence(FLAG, "-Xmx300m", "-jar", "target/georesolver.jar", "--port", "0");
    assertThat(args.indexOf(FLAG)).isLessThan(args.indexOf("-jar"));
  }

  @Test
  @DisplayName("the container and the local stack start the JVM with the flag, and the README says to for java -jar")
  void everyOtherLauncherHasTheFlag() throws Exception {
    assertThat(Files.readString(Path.of("Dockerfile"))).containsPattern("(?m)^ENTRYPOINT \\[\"java\", \"" + Pattern.quote(FLAG) + "\"");
    assertThat(Files.readString(Path.of("scripts/stack.sh")).lines().filter(l -> l.contains("dev.georesolver.Main")
        || l.contains("georesolver.jar")).filter(l -> l.contains("echo \"java ")).toList())
        .isNotEmpty().allSatisfy(l -> assertThat(l).contains(FLAG));
    assertThat(Files.readString(Path.of("README.md"))).contains("java " + FLAG + " -jar target/georesolver.jar");
  }

  private static void write(Path p, String content) throws Exception {
    Files.writeString(p, content);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
