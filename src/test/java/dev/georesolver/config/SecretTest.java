package dev.georesolver.config;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A tier's credential: read from its source once, with why when there is none, and never shown by {@code toString}. */
class SecretTest {

  private static CredentialConfig fromEnv(String var) {
    return CredentialConfig.SECTION.parse("{header: X-Api-Key, env: " + var + "}");
  }

  private static CredentialConfig fromFile(Path file) {
    return CredentialConfig.SECTION.parse("{header: X-Api-Key, file: '" + file + "'}");
  }

  private static Optional<Secret> read(CredentialConfig c, Map<String, String> env) {
    return Optional.ofNullable(Secret.lookup(c, env).secret());
  }

  @Test
  void shouldNeverShowTheValueInToString() {
    Secret s = Secret.of("hunter2-abcdef");

    assertThat(s.toString()).doesNotContain("hunter2").isEqualTo("Secret[redacted]");
    assertThat("key=" + s).doesNotContain("hunter2");
    assertThat(s.reveal()).isEqualTo("hunter2-abcdef");
  }

  @Test
  void shouldReadTheValueFromTheEnvironmentVariable() {
    assertThat(read(fromEnv("TIER_KEY"), Map.of("TIER_KEY", "k-123", "OTHER", "x")))
        .hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo("k-123"));
  }

  @Test
  void shouldBeEmptyWhenTheVariableIsUnset() {
    assertThat(read(fromEnv("TIER_KEY"), Map.of("OTHER", "x"))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t\n"})
  void shouldBeEmptyWhenTheVariableIsBlank(String value) {
    assertThat(read(fromEnv("TIER_KEY"), Map.of("TIER_KEY", value))).isEmpty();
  }

  @Test
  void shouldReadTheFileWithItsTrailingNewlineTrimmed(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("key"), "k-456\n");

    assertThat(read(fromFile(file), Map.of())).hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo("k-456"));
  }

  @Test
  void shouldTrimAWindowsLineEnding(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("key"), "k-789\r\n");

    assertThat(read(fromFile(file), Map.of())).hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo("k-789"));
  }

  @Test
  void shouldBeEmptyWhenTheFileIsBlank(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("key"), "  \n");

    assertThat(read(fromFile(file), Map.of())).isEmpty();
  }

  @Test
  void shouldBeEmptyWhenTheFileIsMissing(@TempDir Path dir) {
    assertThat(read(fromFile(dir.resolve("absent")), Map.of())).isEmpty();
  }

  @Test
  void shouldSayWhyThereIsNoSecretNamingTheSourceOnly(@TempDir Path dir) throws Exception {
    Path blank = Files.writeString(dir.resolve("blank"), " \n");

    assertThat(Secret.lookup(fromEnv("TIER_KEY"), Map.of()).missing()).isEqualTo("credential environment variable TIER_KEY is unset");
    assertThat(Secret.lookup(fromFile(dir.resolve("absent")), Map.of()).missing())
        .isEqualTo("credential file " + dir.resolve("absent") + " is not readable");
    assertThat(Secret.lookup(fromFile(blank), Map.of()).missing()).isEqualTo("credential file " + blank + " is empty");
    assertThat(Secret.lookup(fromFile(dir), Map.of()).missing()).isEqualTo("credential file " + dir + " is not readable");
  }

  @Test
  @DisplayName("a credential file larger than 64 KiB is refused, not read whole")
  void shouldRefuseAnOversizedFile(@TempDir Path dir) throws Exception {
    Path big = Files.writeString(dir.resolve("big"), "k".repeat(Secret.MAX_FILE_BYTES + 1));
    Path limit = Files.writeString(dir.resolve("limit"), "k".repeat(Secret.MAX_FILE_BYTES));

    Secret.Lookup found = Secret.lookup(fromFile(big), Map.of());
    assertThat(found.secret()).isNull();
    assertThat(found.missing()).isEqualTo("credential file " + big + " is larger than 65536 bytes");
    assertThat(read(fromFile(limit), Map.of())).hasValueSatisfying(s -> assertThat(s.reveal()).hasSize(Secret.MAX_FILE_BYTES));
  }
}
