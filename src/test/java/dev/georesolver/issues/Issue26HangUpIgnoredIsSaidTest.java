package dev.georesolver.issues;

import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.TestState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** A resolver started with hang-ups ignored (as under nohup) says that SIGHUP cannot reload it, instead of ignoring the signal in silence. */
class Issue26HangUpIgnoredIsSaidTest {

  @Test
  @DisplayName("started with SIGHUP ignored, the resolver warns that a hang-up does not reload and names the other ways; at the default it does not")
  void ignoredHangUpIsSaid() throws Exception {
    String warning = "SIGHUP is ignored in this process";
    try (ResolverProcess p = ResolverProcess.startWithHangUp("IGNORE", Map.of(), "--manifest", manifestFile().toString(), "--port", "0")) {
      assertThat(p.stdout()).anySatisfy(l -> assertThat(l).contains(warning).contains("POST /admin/reload"));
    }
    try (ResolverProcess p = ResolverProcess.startWithHangUp("DEFAULT", Map.of(), "--manifest", manifestFile().toString(), "--port", "0")) {
      assertThat(p.stdout()).noneSatisfy(l -> assertThat(l).contains(warning));
    }
  }

  private static Path manifestFile() throws Exception {
    Path dir = TestState.freshDir();
    Path m = dir.resolve("manifest.yaml");
    Files.writeString(m, manifest().tier("g", "gazetteer", null, "locality", 200)
        .extra("state: { path: \"" + dir.resolve("state.db") + "\" }").yaml());
    return m;
  }
}
