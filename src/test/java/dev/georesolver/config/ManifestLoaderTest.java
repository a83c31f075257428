package dev.georesolver.config;

import dev.georesolver.geo.Claim;
import dev.georesolver.provider.CredentialPlacement;
import dev.georesolver.provider.SchemaMode;
import dev.georesolver.support.ManifestBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Every validation rule of the manifest (DESIGN §8), its defaults, revision and disabled tiers. */
class ManifestLoaderTest {

  private static final Map<String, String> NO_ENV = Map.of();

  /** A valid tier ({@link ManifestBuilder#tierEntry}); a test overrides fields with {@code "key: value"} or drops one with {@code "-key"}. */
  private static String tier(String... overrides) {
    return ManifestBuilder.tierEntry(overrides);
  }

  /** A manifest with these routing lines (two-space indented) and tiers. */
  private static String manifestWithRouting(String routingLines, String... tiers) {
    return "routing:\n" + routingLines + "  tiers:\n" + String.join("", tiers);
  }

  private static String manifest(String... tiers) {
    return manifestWithRouting("", tiers);
  }

  private static Manifest parse(String yaml) throws ManifestException {
    return ManifestLoader.parse(yaml, NO_ENV);
  }

  private static void assertBreaker(BreakerConfig b, int failureThreshold, long halfOpenTimeoutMs, int successThreshold) {
    assertThat(b.failureThreshold()).isEqualTo(failureThreshold);
    assertThat(b.halfOpenTimeoutMs()).isEqualTo(halfOpenTimeoutMs);
    assertThat(b.successThreshold()).isEqualTo(successThreshold);
  }

  private static void assertIntent(IntentConfig i, String name, long maxCacheAgeS, Set<Claim> claims) {
    assertThat(i.name()).isEqualTo(name);
    assertThat(i.maxCacheAgeS()).isEqualTo(maxCacheAgeS);
    assertThat(i.claims()).isEqualTo(claims);
  }

  private static List<String> problems(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> ManifestLoader.parse(yaml, NO_ENV));
    assertThat(e).as("the manifest should be refused:%n%s", yaml).isNotNull();
    return e.problems();
  }

  @Test
  void shouldAcceptAMinimalManifest() throws Exception {
    Manifest m = parse(manifest(tier()));

    assertThat(m.routing().tiers()).extracting(TierConfig::name).containsExactly("t1");
    assertThat(m.enabledTiers()).extracting(TierConfig::name).containsExactly("t1");
    assertThat(m.disabledTiers()).isEmpty();
  }

  @Nested
  @DisplayName("the document")
  class Document {

    @Test
    void shouldReportTextThatIsNotYaml() {
      assertThat(problems("routing: [unclosed\n  tiers: {"))
          .singleElement().asString().startsWith("not valid YAML: ").doesNotContain("\n");
    }

    @Test
    void shouldReportAnEmptyDocument() {
      assertThat(problems("")).containsExactly("manifest is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"just some text", "- a\n- b\n", "42"})
    void shouldReportARootThatIsNotAMapping(String yaml) {
      assertThat(problems(yaml)).containsExactly("manifest must be a mapping");
    }

    @Test
    void shouldReportAMissingRoutingBlock() {
      assertThat(problems("default_intent: describe\n")).containsExactly("routing is required");
    }

    @Test
    void shouldReportARoutingBlockThatIsNotAMapping() {
      assertThat(problems("routing: [a, b]\n")).containsExactly("routing must be a mapping");
    }

    @Test
    void shouldReportAnUnknownTopLevelField() {
      assertThat(problems(manifest(tier()) + "defualt_intent: describe\n"))
          .containsExactly("defualt_intent is not a known field");
    }

    @Test
    @DisplayName("a key given twice is refused, not silently overridden by the second")
    void shouldRefuseADuplicateKey() {
      assertThat(problems(manifest(tier()).replace("timeout_ms: 1000\n", "timeout_ms: 1000\n      timeout_ms: 5\n")))
          .singleElement().asString().startsWith("not valid YAML: ").contains("duplicate key timeout_ms");
    }
  }

  @Nested
  @DisplayName("routing")
  class Routing {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
        budget_ms: 0                                    | routing.budget_ms must be > 0
        budget_ms: -1                                   | routing.budget_ms must be > 0
        budget_ms: 2.5                                  | routing.budget_ms must be > 0
        max_budget_ms: 0                                | routing.max_budget_ms must be > 0
        budget_ms: 10001                                | routing.budget_ms must be <= routing.max_budget_ms
        admission_factor: -0.1                          | routing.admission_factor must be in [0, 10]
        admission_factor: 10.5                          | routing.admission_factor must be in [0, 10]
        admission_factor: fast                          | routing.admission_factor must be a number
        admission_factor: .nan                          | routing.admission_factor must be a number
        budgt_ms: 100                                   | routing.budgt_ms is not a known field
        idempotency: {deduplication_store: postgres}    | routing.idempotency.deduplication_store must be memory or redis
        idempotency: {ttl_seconds: 0}                   | routing.idempotency.ttl_seconds must be > 0
        idempotency: {ttl_seconds: -60}                 | routing.idempotency.ttl_seconds must be > 0
        idempotency: {degraded_ttl_seconds: -1}         | routing.idempotency.degraded_ttl_seconds must be >= 0
        idempotency: {max_entries: 0}                   | routing.idempotency.max_entries must be > 0
        idempotency: {max_bytes: 0}                     | routing.idempotency.max_bytes must be > 0
        idempotency: {max_bytes: 256MiB}                | routing.idempotency.max_bytes must be > 0
        idempotency: {ttl_second: 60}                   | routing.idempotency.ttl_second is not a known field
        idempotency: {key_prefix: ''}                   | routing.idempotency.key_prefix must be a non-empty string
        idempotency: redis                              | routing.idempotency must be a mapping
        """)
    void shouldReportABadRoutingField(String line, String expected) {
      assertThat(problems(manifestWithRouting("  " + line + "\n", tier()))).containsExactly(expected);
    }

    @Test
    @DisplayName("key_strategy means something: the one strategy implemented is accepted, any other is refused")
    void shouldAcceptOnlyTheImplementedKeyStrategy() throws Exception {
      String implemented = "  idempotency: {key_strategy: \"sha256(normalized_address + bounding_box)\"}\n";
      assertThat(parse(manifestWithRouting(implemented, tier())).routing().idempotency().get(IdempotencyConfig.KEY_STRATEGY))
          .isEqualTo(dev.georesolver.normalize.IdempotencyKey.STRATEGY);
      assertThat(problems(manifestWithRouting("  idempotency: {key_strategy: \"md5(address)\"}\n", tier()))).containsExactly(
          "routing.idempotency.key_strategy must be \"sha256(normalized_address + bounding_box)\", the only key strategy supported");
    }

    @Test
    void shouldAcceptABudgetEqualToTheMaximumAndFactorsAtTheEndsOfTheRange() throws Exception {
      assertThat(parse(manifestWithRouting("  budget_ms: 10000\n", tier())).routing().budgetMs()).isEqualTo(10_000);
      assertThat(parse(manifestWithRouting("  admission_factor: 0\n", tier())).routing().admissionFactor()).isZero();
      assertThat(parse(manifestWithRouting("  admission_factor: 10\n", tier())).routing().admissionFactor()).isEqualTo(10.0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"routing:\n  budget_ms: 100\n", "routing:\n  tiers: []\n", "routing:\n  tiers: primary\n"})
    void shouldReportMissingOrEmptyTiers(String yaml) {
      assertThat(problems(yaml)).containsExactly("routing.tiers must be a non-empty list");
    }

    @Test
    void shouldReportATierThatIsNotAMapping() {
      assertThat(problems(manifest("    - primary\n"))).containsExactly("routing.tiers[0] must be a mapping");
    }

    @Test
    void shouldReportADuplicateTierNameAtTheSecondTier() {
      assertThat(problems(manifest(tier("name: a"), tier("name: b"), tier("name: a"))))
          .containsExactly("routing.tiers[2].name 'a' is a duplicate");
    }

    @Test
    @DisplayName("the path names the tier's index: routing.tiers[1].timeout_ms must be > 0")
    void shouldNameTheTierIndexInThePath() {
      assertThat(problems(manifest(tier("name: a"), tier("name: b", "timeout_ms: 0"))))
          .containsExactly("routing.tiers[1].timeout_ms must be > 0");
    }
  }

  @Nested
  @DisplayName("a tier")
  class Tier {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
        -name                                        | routing.tiers[0].name is required
        name: Primary                                | routing.tiers[0].name must match [a-z0-9][a-z0-9_.-]{0,62}
        name: has space                              | routing.tiers[0].name must match [a-z0-9][a-z0-9_.-]{0,62}
        name: _leading                               | routing.tiers[0].name must match [a-z0-9][a-z0-9_.-]{0,62}
        -adapter                                     | routing.tiers[0].adapter is required
        -claim                                       | routing.tiers[0].claim is required
        claim: premium                               | routing.tiers[0].claim 'premium' is unknown (known: exact, open_data, cached, locality)
        -endpoint                                    | routing.tiers[0].endpoint is required for this adapter
        endpoint: /v1/geocode                        | routing.tiers[0].endpoint must be an absolute http(s) URL with a host
        endpoint: geo.example/v1                     | routing.tiers[0].endpoint must be an absolute http(s) URL with a host
        endpoint: ftp://geo.example/v1               | routing.tiers[0].endpoint must be an absolute http(s) URL with a host
        endpoint: http:///v1                         | routing.tiers[0].endpoint must be an absolute http(s) URL with a host
        -timeout_ms                                  | routing.tiers[0].timeout_ms is required
        timeout_ms: 0                                | routing.tiers[0].timeout_ms must be > 0
        timeout_ms: -100                             | routing.tiers[0].timeout_ms must be > 0
        timeout_ms: '1000'                           | routing.tiers[0].timeout_ms must be > 0
        typical_ms: 0                                | routing.tiers[0].typical_ms must be > 0
        typical_ms: 1001                             | routing.tiers[0].typical_ms must be <= timeout_ms
        retry_budget: -1                             | routing.tiers[0].retry_budget must be in [0, 10]
        retry_budget: 11                             | routing.tiers[0].retry_budget must be in [0, 10]
        retry_budget: 4294967297                     | routing.tiers[0].retry_budget must be in [0, 10]
        retry_budget: 1.5                            | routing.tiers[0].retry_budget must be an integer
        retry_backoff_ms: -1                         | routing.tiers[0].retry_backoff_ms must be >= 0
        retry_after_max_ms: 0                        | routing.tiers[0].retry_after_max_ms must be > 0
        retry_after_max_ms: 5m                       | routing.tiers[0].retry_after_max_ms must be > 0
        rate_limit_per_s: -1                         | routing.tiers[0].rate_limit_per_s must be >= 0 (0 means unlimited)
        rate_limit_per_s: -0.5                       | routing.tiers[0].rate_limit_per_s must be >= 0 (0 means unlimited)
        schema_validation: lenient                   | routing.tiers[0].schema_validation must be strict or relaxed
        schema_validation: STRICT                    | routing.tiers[0].schema_validation must be strict or relaxed
        pool_size: 0                                 | routing.tiers[0].pool_size must be > 0
        pool_size: 2147483648                        | routing.tiers[0].pool_size must be <= 2147483647
        timout_ms: 1000                              | routing.tiers[0].timout_ms is not a known field
        headers: {User-Agent: 5}                     | routing.tiers[0].headers.User-Agent must be a string
        circuit_breaker: {failure_threshold: 0}      | routing.tiers[0].circuit_breaker.failure_threshold must be > 0
        circuit_breaker: {failure_threshold: 4294967296} | routing.tiers[0].circuit_breaker.failure_threshold must be <= 2147483647
        circuit_breaker: {half_open_timeout_ms: -1}  | routing.tiers[0].circuit_breaker.half_open_timeout_ms must be > 0
        circuit_breaker: {success_threshold: 0}      | routing.tiers[0].circuit_breaker.success_threshold must be > 0
        circuit_breaker: {failure_treshold: 3}       | routing.tiers[0].circuit_breaker.failure_treshold is not a known field
        circuit_breaker: open                        | routing.tiers[0].circuit_breaker must be a mapping
        credential: {header: X-Key}                  | routing.tiers[0].credential needs exactly one of env or file
        credential: {header: X-Key, env: K, file: /run/k} | routing.tiers[0].credential needs exactly one of env or file
        credential: {header: X-Key, query_param: key, env: K} | routing.tiers[0].credential takes header or query_param, not both
        credential: {env: K, hedaer: X-Key}          | routing.tiers[0].credential.hedaer is not a known field
        credential: K                                | routing.tiers[0].credential must be a mapping
        """)
    void shouldReportABadTierField(String override, String expected) {
      assertThat(problems(manifest(tier(override)))).containsExactly(expected);
    }

    @Test
    void shouldReportAnEmptyName() {
      assertThat(problems(manifest(tier("name: ''")))).contains("routing.tiers[0].name must be a non-empty string");
    }

    @Test
    @DisplayName("a tier with an unknown claim does not make every intent's ladder look empty")
    void shouldNotReportIntentLaddersWhileATierClaimIsUnknown() {
      String yaml = manifest(tier("name: a", "claim: exakt"), tier("name: b", "claim: open_data"))
          + "intents:\n  describe: {}\n  strict: {claims: [exact]}\n";

      assertThat(problems(yaml)).containsExactly(
          "routing.tiers[0].claim 'exakt' is unknown (known: exact, open_data, cached, locality)");
    }

    @Test
    void shouldReportAnUnknownAdapterListingTheKnownOnes() {
      assertThat(problems(manifest(tier("adapter: bing")))).singleElement().asString()
          .startsWith("routing.tiers[0].adapter 'bing' is unknown (known: ")
          .contains("arcgis, cached_index, gazetteer, generic, google, here, mapbox, mapbox_v5, nominatim, opencage, pelias, photon");
    }

    @Test
    void shouldReportAnEndpointThatIsNotAUrl() {
      assertThat(problems(manifest(tier("endpoint: 'http://geo example/v1'")))).singleElement().asString()
          .startsWith("routing.tiers[0].endpoint is not a valid URL: ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cached_index", "gazetteer"})
    void shouldNotRequireAnEndpointForALocalAdapter(String adapter) throws Exception {
      Manifest m = parse(manifest(tier("name: local", "adapter: " + adapter, "-endpoint", "claim: cached"), tier()));

      assertThat(m.routing().tiers().get(0).endpoint()).isNull();
    }

    @Test
    @DisplayName("a misspelt field is reported with its path, and so is the required field it failed to give")
    void shouldReportATypoAndTheMissingFieldItWasMeantToBe() {
      assertThat(problems(manifest(tier("-timeout_ms", "timout_ms: 1000"))))
          .containsExactlyInAnyOrder("routing.tiers[0].timout_ms is not a known field", "routing.tiers[0].timeout_ms is required");
    }

    @Test
    void shouldAcceptTypicalEqualToTimeout() throws Exception {
      assertThat(parse(manifest(tier("typical_ms: 1000"))).routing().tiers().get(0).typicalMs()).isEqualTo(1000);
    }

    @Test
    void shouldReadEveryTierField() throws Exception {
      TierConfig t = parse(manifest(tier("adapter: google", "endpoint: https://maps.example/geocode", "region: eu",
          "typical_ms: 300", "retry_budget: 2", "retry_backoff_ms: 20", "retry_after_max_ms: 60000", "rate_limit_per_s: 7.5",
          "credential: {query_param: key, env: GOOGLE_KEY}", "schema_validation: relaxed",
          "headers: {User-Agent: georesolver-test}", "notice: 'Per {tier}, '", "pool_size: 8",
          "circuit_breaker: {failure_threshold: 2, half_open_timeout_ms: 500, success_threshold: 1}")))
          .routing().tiers().get(0);

      assertThat(t.adapter()).isEqualTo("google");
      assertThat(t.endpoint()).isEqualTo("https://maps.example/geocode");
      assertThat(t.claim()).isEqualTo(Claim.EXACT);
      assertThat(t.region()).isEqualTo("eu");
      assertThat(t.typicalMs()).isEqualTo(300);
      assertThat(t.retryBudget()).isEqualTo(2);
      assertThat(t.retryBackoffMs()).isEqualTo(20);
      assertThat(t.retryAfterMaxMs()).isEqualTo(60_000);
      assertThat(t.rateLimitPerS()).isEqualTo(7.5);
      assertThat(t.credential().placement()).isEqualTo(CredentialPlacement.queryParam("key"));
      assertThat(t.credential().env()).isEqualTo("GOOGLE_KEY");
      assertThat(t.credential().file()).isNull();
      assertThat(t.schemaMode()).isEqualTo(SchemaMode.RELAXED);
      assertThat(t.headers()).containsExactly(Map.entry("User-Agent", "georesolver-test"));
      assertThat(t.notice()).isEqualTo("Per {tier}, ");
      assertThat(t.poolSize()).isEqualTo(8);
      assertBreaker(t.breaker(), 2, 500, 1);
    }
  }

  @Nested
  @DisplayName("intents")
  class Intents {

    @Test
    void shouldReportAnUnknownClaimInAnIntent() {
      assertThat(problems(manifest(tier()) + "intents:\n  strict: {claims: [exact, premium]}\n"))
          .containsExactly("intents.strict.claims has unknown claim 'premium'");
    }

    @Test
    void shouldReportAnIntentWhoseTrimmedLadderIsEmpty() {
      String yaml = manifest(tier("name: a", "claim: exact"), tier("name: b", "claim: open_data"))
          + "intents:\n  describe: {}\n  rough: {claims: [locality]}\n";

      assertThat(problems(yaml)).containsExactly("intents.rough leaves no tier in the ladder (claims [locality])");
    }

    @Test
    @DisplayName("with no intents block and no exact tier, the unservable default contain intent is left out")
    void shouldLeaveOutTheDefaultContainIntentWhenNoTierIsExact() throws Exception {
      Manifest m = parse(manifest(tier("claim: open_data")));
      assertThat(m.intentNames()).containsExactlyInAnyOrder("describe", "measure");
      assertThat(m.defaultIntent()).isEqualTo("describe");
    }

    @Test
    @DisplayName("an intents block naming contain without an exact tier is refused")
    void shouldReportADeclaredContainIntentWhenNoTierIsExact() {
      assertThat(problems(manifest(tier("claim: open_data")) + "intents:\n  contain: { max_cache_age_s: 0, claims: [exact] }\n"))
          .containsExactly("intents.contain leaves no tier in the ladder (claims [exact])");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        intents: {}                                    | intents must define at least one intent
        intents: [describe]                            | intents must be a mapping
        intents: {describe: {max_age_s: 60}}         | intents.describe.max_age_s is not a known field
        intents: {describe: {max_cache_age_s: -1}}   | intents.describe.max_cache_age_s must be >= 0
        intents: {describe: {max_cache_age_s: soon}} | intents.describe.max_cache_age_s must be an integer
        intents: {describe: {claims: []}}            | intents.describe.claims must be a non-empty list
        intents: {describe: {claims: exact}}         | intents.describe.claims must be a non-empty list
        intents: {describe: fast}                    | intents.describe must be a mapping
        """)
    void shouldReportABadIntent(String block, String expected) {
      assertThat(problems(manifest(tier()) + block + "\n")).containsExactly(expected);
    }

    @Test
    void shouldReportADefaultIntentThatIsNotDefined() {
      assertThat(problems(manifest(tier()) + "intents:\n  describe: {}\ndefault_intent: measure\n"))
          .containsExactly("default_intent 'measure' is not a defined intent");
    }

    @Test
    void shouldReportADefaultIntentMissingFromTheDefaultIntents() {
      assertThat(problems(manifest(tier()) + "default_intent: survey\n"))
          .containsExactly("default_intent 'survey' is not a defined intent");
    }

    @Test
    void shouldUseTheFirstIntentAsDefaultWhenThereIsNoDescribe() throws Exception {
      Manifest m = parse(manifest(tier()) + "intents:\n  quick: {max_cache_age_s: 60}\n  careful: {claims: [exact]}\n");

      assertThat(m.defaultIntent()).isEqualTo("quick");
      assertThat(m.intentNames()).containsExactlyInAnyOrder("quick", "careful");
      assertIntent(m.intent("quick").orElseThrow(), "quick", 60, Set.of());
      assertIntent(m.intent("careful").orElseThrow(), "careful", 604_800, Set.of(Claim.EXACT));
    }

    @Test
    void shouldUseTheNamedDefaultIntent() throws Exception {
      Manifest m = parse(manifest(tier()) + "intents:\n  describe: {}\n  measure: {}\ndefault_intent: measure\n");

      assertThat(m.defaultIntent()).isEqualTo("measure");
    }
  }

  @Nested
  @DisplayName("crs_definitions")
  class CrsDefinitions {

    @Test
    void shouldKeepAReadablePinnedDefinition() throws Exception {
      String def = "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +no_defs";
      Manifest m = parse(manifest(tier()) + "crs_definitions:\n  \"EPSG:3857\": \"" + def + "\"\n");

      assertThat(m.crsDefinitions()).containsExactly(Map.entry("EPSG:3857", def));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        crs_definitions: {"EPSG:banana": "+proj=longlat +datum=WGS84"} | crs_definitions.EPSG:banana:
        crs_definitions: {"EPSG:3857": ""}                             | crs_definitions.EPSG:3857: empty definition
        crs_definitions: {"EPSG:3857": "+proj=nonsense"}               | crs_definitions.EPSG:3857: proj4j cannot read the definition
        crs_definitions: {"EPSG:3857": 3857}                           | crs_definitions.EPSG:3857 must be a string
        crs_definitions: [EPSG:3857]                                   | crs_definitions must be a mapping
        """)
    void shouldReportABadDefinition(String block, String expectedStart) {
      assertThat(problems(manifest(tier()) + block + "\n")).singleElement().asString().startsWith(expectedStart);
    }
  }

  @Test
  @DisplayName("every problem is reported at once, each with its path")
  void shouldReportEveryProblemAtOnce() {
    String yaml = manifestWithRouting("  budget_ms: 0\n  admission_factor: 11\n",
        tier("name: a", "timout_ms: 5"),
        tier("name: a", "adapter: bing", "retry_budget: 12"),
        tier("name: c", "adapter: gazetteer", "-endpoint", "claim: locality", "typical_ms: 2000"))
        + "default_intent: survey\n";

    List<String> problems = problems(yaml);

    assertThat(problems).hasSize(8).contains(
        "routing.budget_ms must be > 0",
        "routing.admission_factor must be in [0, 10]",
        "routing.tiers[0].timout_ms is not a known field",
        "routing.tiers[1].retry_budget must be in [0, 10]",
        "routing.tiers[1].name 'a' is a duplicate",
        "routing.tiers[2].typical_ms must be <= timeout_ms",
        "default_intent 'survey' is not a defined intent");
    assertThat(problems).filteredOn(p -> p.startsWith("routing.tiers[1].adapter 'bing' is unknown")).hasSize(1);
  }

  @Test
  void shouldListEveryProblemInTheExceptionMessage() {
    assertThatThrownBy(() -> parse(manifest(tier("timeout_ms: 0", "pool_size: 0"))))
        .isInstanceOf(ManifestException.class)
        .hasMessage("invalid manifest:\n  - routing.tiers[0].timeout_ms must be > 0\n  - routing.tiers[0].pool_size must be > 0");
  }

  @Nested
  @DisplayName("defaults")
  class Defaults {

    @Test
    void shouldApplyTheRoutingDefaults() throws Exception {
      RoutingConfig r = parse(manifest(tier())).routing();

      assertThat(r.budgetMs()).isEqualTo(2500);
      assertThat(r.maxBudgetMs()).isEqualTo(10_000);
      assertThat(r.admissionFactor()).isEqualTo(0.5);
      IdempotencyConfig i = r.idempotency();
      assertThat(i.get(IdempotencyConfig.KEY_STRATEGY)).isEqualTo("sha256(normalized_address + bounding_box)");
      assertThat(i.ttlSeconds()).isEqualTo(3600);
      assertThat(i.degradedTtlSeconds()).isEqualTo(60);
      assertThat(i.store()).isEqualTo("memory");
      assertThat(i.redis()).isFalse();
      assertThat(i.maxEntries()).isEqualTo(100_000);
      assertThat(i.maxBytes()).as("256 MiB").isEqualTo(268_435_456L);
      assertThat(i.keyPrefix()).isEqualTo("geo:");
      assertThat(i.commandTimeoutMs()).isEqualTo(100);
      assertThat(i.indexTtlSeconds()).isEqualTo(30L * 86_400);
    }

    @Test
    @DisplayName("routing.idempotency.max_bytes bounds the in-process store and index by bytes")
    void shouldReadTheStoreByteBound() throws Exception {
      IdempotencyConfig i = parse(manifestWithRouting("  idempotency: {max_bytes: 1048576}\n", tier())).routing().idempotency();
      assertThat(i.maxBytes()).isEqualTo(1_048_576L);
      assertThat(i.maxEntries()).as("the entry bound still applies").isEqualTo(100_000);
    }

    @Test
    void shouldApplyTheTierDefaults() throws Exception {
      TierConfig t = parse(manifest(tier("timeout_ms: 1200"))).routing().tiers().get(0);

      assertThat(t.typicalMs()).as("typical = timeout / 2").isEqualTo(600);
      assertBreaker(t.breaker(), 5, 30_000, 3);
      assertThat(t.breaker()).isEqualTo(BreakerConfig.defaults());
      assertThat(t.retryBudget()).isZero();
      assertThat(t.retryBackoffMs()).isEqualTo(50);
      assertThat(t.retryAfterMaxMs()).as("5 minutes").isEqualTo(300_000);
      assertThat(t.rateLimitPerS()).isZero();
      assertThat(t.schemaMode()).isEqualTo(SchemaMode.STRICT);
      assertThat(t.poolSize()).isEqualTo(64);
      assertThat(t.region()).isEqualTo("global");
      assertThat(t.credential()).isNull();
      assertThat(t.headers()).isEmpty();
      assertThat(t.notice()).isNull();
      assertThat(t.reverseRadiusM()).as("0: the adapter's own").isZero();
    }

    @Test
    void shouldNeverSeedATypicalLatencyOfZero() throws Exception {
      assertThat(parse(manifest(tier("timeout_ms: 1"))).routing().tiers().get(0).typicalMs()).isEqualTo(1);
    }

    @Test
    void shouldDefineDescribeMeasureAndContainWhenNoIntentsAreGiven() throws Exception {
      Manifest m = parse(manifest(tier()));

      assertThat(m.intents()).containsOnlyKeys("describe", "measure", "contain");
      assertIntent(m.intents().get("describe"), "describe", 604_800, Set.of());
      assertIntent(m.intents().get("measure"), "measure", 3600, Set.of());
      assertIntent(m.intents().get("contain"), "contain", 0, Set.of(Claim.EXACT));
      assertThat(m.defaultIntent()).isEqualTo("describe");
      assertThat(m.crsDefinitions()).isEmpty();
    }
  }

  @Nested
  @DisplayName("the revision")
  class Revision {

    private final String yaml = manifest(tier());

    private String sha256(String s) throws Exception {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void shouldBeTheFirstTwelveHexDigitsOfTheFilesSha256() throws Exception {
      Manifest m = parse(yaml);

      assertThat(m.sha256()).isEqualTo(sha256(yaml));
      assertThat(m.revision()).isEqualTo(sha256(yaml).substring(0, 12)).matches("[0-9a-f]{12}");
    }

    @Test
    void shouldAppendTheGitShaWhenGiven() throws Exception {
      Manifest m = ManifestLoader.parse(yaml, Map.of("MANIFEST_GIT_SHA", " 3f9c2ab "));

      assertThat(m.revision()).isEqualTo(sha256(yaml).substring(0, 12) + "-g3f9c2ab");
    }

    @Test
    void shouldIgnoreABlankGitSha() throws Exception {
      assertThat(ManifestLoader.parse(yaml, Map.of("MANIFEST_GIT_SHA", "  ")).revision()).isEqualTo(sha256(yaml).substring(0, 12));
    }

    @Test
    void shouldChangeWithTheFile() throws Exception {
      assertThat(parse(yaml + "# reviewed\n").revision()).isNotEqualTo(parse(yaml).revision());
    }

    @Test
    void shouldReadTheSameFileFromDisk(@TempDir Path dir) throws Exception {
      Path file = dir.resolve("manifest.yaml");
      Files.writeString(file, yaml, StandardCharsets.UTF_8);

      assertThat(ManifestLoader.load(file, NO_ENV).revision()).isEqualTo(parse(yaml).revision());
    }
  }

  @Nested
  @DisplayName("tiers left out at start")
  class DisabledTiers {

    private final String envTier = tier("name: paid", "credential: {header: X-Key, env: PAID_KEY}");
    private final String open = tier("name: osm", "claim: open_data");

    @Test
    void shouldKeepATierWhoseCredentialVariableIsSet() throws Exception {
      Manifest m = ManifestLoader.parse(manifest(envTier, open), Map.of("PAID_KEY", "s3cr3t"));

      assertThat(m.disabledTiers()).isEmpty();
      assertThat(m.enabledTiers()).extracting(TierConfig::name).containsExactly("paid", "osm");
    }

    @ParameterizedTest(name = "PAID_KEY=''{0}''")
    @ValueSource(strings = {"", "   "})
    void shouldLeaveOutATierWhoseCredentialVariableIsBlank(String value) throws Exception {
      Manifest m = ManifestLoader.parse(manifest(envTier, open), Map.of("PAID_KEY", value));

      assertThat(m.disabledTiers()).containsExactly(Map.entry("paid", "credential environment variable PAID_KEY is unset"));
      assertThat(m.enabledTiers()).extracting(TierConfig::name).containsExactly("osm");
      assertThat(m.routing().tiers()).extracting(TierConfig::name).containsExactly("paid", "osm");
    }

    @Test
    void shouldLeaveOutATierWhoseCredentialVariableIsUnset() throws Exception {
      Manifest m = ManifestLoader.parse(manifest(envTier, open), NO_ENV);

      assertThat(m.disabledTiers()).containsOnlyKeys("paid");
      assertThat(m.enabledTiers()).extracting(TierConfig::name).containsExactly("osm");
    }

    private String fileTier(Path file) {
      return tier("name: paid", "credential: {file: '" + file + "'}");
    }

    @Test
    void shouldKeepATierWhoseCredentialFileIsReadable(@TempDir Path dir) throws Exception {
      Path key = Files.writeString(dir.resolve("key"), "s3cr3t\n");

      assertThat(parse(manifest(fileTier(key), open)).disabledTiers()).isEmpty();
    }

    @Test
    void shouldLeaveOutATierWhoseCredentialFileIsMissing(@TempDir Path dir) throws Exception {
      Path key = dir.resolve("absent");
      Manifest m = parse(manifest(fileTier(key), open));

      assertThat(m.disabledTiers()).containsExactly(Map.entry("paid", "credential file " + key + " is not readable"));
      assertThat(m.enabledTiers()).extracting(TierConfig::name).containsExactly("osm");
    }

    @Test
    @DisplayName("a blank credential file leaves the tier out, as a blank variable does")
    void shouldLeaveOutATierWhoseCredentialFileIsBlank(@TempDir Path dir) throws Exception {
      Path key = Files.writeString(dir.resolve("key"), " \n");
      Manifest m = parse(manifest(fileTier(key), open));

      assertThat(m.disabledTiers()).containsExactly(Map.entry("paid", "credential file " + key + " is empty"));
      assertThat(m.enabledTiers()).extracting(TierConfig::name).containsExactly("osm");
    }

    @Test
    void shouldDescribeEnabledAndDisabledTiers() throws Exception {
      Manifest m = ManifestLoader.parse(manifest(envTier, open), NO_ENV);

      assertThat(m.describe().getJsonArray("enabled_tiers").getList()).containsExactly("osm");
      assertThat(m.describe().getJsonObject("disabled_tiers").fieldNames()).containsExactly("paid");
      assertThat(m.describe().getString("revision")).isEqualTo(m.revision());
    }
  }
}
