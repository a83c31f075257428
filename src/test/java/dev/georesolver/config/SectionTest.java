package dev.georesolver.config;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The section mechanism on its own: declared fields read, default, check and show themselves; problems name their paths. */
class SectionTest {

  /** A nested section: one item of a list. */
  static final class Item extends Settings {
    static final Section<Item> SECTION = new Section<>(Item::new);
    static final Field<String> ID = SECTION.string("id").required();
    static final Field<Integer> WEIGHT = SECTION.ints("weight", 1, Integer.MAX_VALUE).byDefault(1);

    private Item(Settings read) {
      super(read);
    }
  }

  /** A section whose every field has a default: an entry given no value takes them all. */
  static final class Note extends Settings {
    static final Section<Note> SECTION = new Section<>(Note::new);
    static final Field<String> TEXT = SECTION.string("text").byDefault("-");

    private Note(Settings read) {
      super(read);
    }
  }

  /** A section with one field of each kind, a computed default and a rule. */
  static final class Toy extends Settings {
    static final Section<Toy> SECTION = new Section<>(Toy::new);
    static final Field<String> LABEL = SECTION.string("label").required();
    static final Field<Long> WAIT_MS = SECTION.longs("wait_ms", 1, Long.MAX_VALUE).byDefault(250L);
    static final Field<Long> LIMIT_MS = SECTION.longs("limit_ms", 0, Long.MAX_VALUE)
        .defaultFrom(v -> v.get(WAIT_MS) == null ? null : v.get(WAIT_MS) * 4);
    static final Field<Integer> TRIES = SECTION.ints("tries", 0, 5).byDefault(1);
    static final Field<Double> SHARE = SECTION.number("share", 0, 1).byDefault(0.5);
    static final Field<Double> RATE = SECTION.number("rate", 0, Double.POSITIVE_INFINITY).byDefault(0.0);
    static final Field<String> MODE = SECTION.string("mode").byDefault("fast").check(List.of("fast", "safe")::contains, "must be fast or safe");
    static final Field<java.time.DayOfWeek> DAY = SECTION.choice("day", Arrays.asList(java.time.DayOfWeek.values()),
        d -> d.name().toLowerCase(), text -> "'" + text + "' is not a day");
    static final Field<Item> MAIN = SECTION.section("main", Item.SECTION);
    static final Field<List<Item>> ITEMS = SECTION.list("items", Item.SECTION, Item.ID);
    static final Field<Map<String, Note>> NAMED = SECTION.map("named", Note.SECTION, "must name at least one item");
    static final Field<Map<String, String>> TAGS = SECTION.stringMap("tags").byDefault(Map.of()).shownAs(t -> t.size() + " tags");

    static {
      SECTION.rule((v, at) -> {
        Long wait = v.get(WAIT_MS);
        Long limit = v.get(LIMIT_MS);
        if (wait != null && limit != null && wait > limit) {
          at.problem(WAIT_MS.key(), "must be <= " + at.path(LIMIT_MS.key()));
        }
      });
    }

    private Toy(Settings read) {
      super(read);
    }
  }

  private static List<String> problems(String yaml) {
    Problems p = new Problems();
    Object node;
    try {
      node = ManifestLoader.yaml(yaml);
    } catch (ManifestException e) {
      return e.problems();
    }
    Toy.SECTION.read(Section.mapping(node, "toy", p), "toy", null, p);
    ManifestException e = p.exception();
    return e.problems();
  }

  @Test
  @DisplayName("absent fields take their defaults, a computed default follows the field it is computed from")
  void shouldFillInDefaults() {
    Toy t = Toy.SECTION.parse("label: x");

    assertThat(t.get(Toy.WAIT_MS)).isEqualTo(250L);
    assertThat(t.get(Toy.LIMIT_MS)).as("4 x wait_ms").isEqualTo(1000L);
    assertThat(t.get(Toy.TRIES)).isEqualTo(1);
    assertThat(t.get(Toy.SHARE)).isEqualTo(0.5);
    assertThat(t.get(Toy.MODE)).isEqualTo("fast");
    assertThat(t.get(Toy.MAIN)).isNull();
    assertThat(t.get(Toy.TAGS)).isEmpty();
    assertThat(Toy.SECTION.parse("{label: x, wait_ms: 10}").get(Toy.LIMIT_MS)).isEqualTo(40L);
    assertThat(Toy.SECTION.parse("{label: x, wait_ms: 10, limit_ms: 15}").get(Toy.LIMIT_MS)).isEqualTo(15L);
  }

  @Test
  void shouldReadGivenValuesOfEveryKind() {
    Toy t = Toy.SECTION.parse("""
        label: x
        tries: 5
        share: 1
        rate: 2.5
        mode: safe
        day: monday
        main: {id: m, weight: 3}
        items: [{id: a}, {id: b, weight: 2}]
        named: {first: {text: f}, second: }
        tags: {colour: blue}
        """);

    assertThat(t.get(Toy.TRIES)).isEqualTo(5);
    assertThat(t.get(Toy.SHARE)).isEqualTo(1.0);
    assertThat(t.get(Toy.RATE)).isEqualTo(2.5);
    assertThat(t.get(Toy.DAY)).isEqualTo(java.time.DayOfWeek.MONDAY);
    assertThat(t.get(Toy.MAIN).get(Item.WEIGHT)).isEqualTo(3);
    assertThat(t.get(Toy.ITEMS)).extracting(i -> i.get(Item.ID)).containsExactly("a", "b");
    assertThat(t.get(Toy.NAMED)).containsOnlyKeys("first", "second");
    assertThat(t.get(Toy.NAMED).get("first").get(Note.TEXT)).isEqualTo("f");
    assertThat(t.get(Toy.NAMED).get("second").entryKey()).isEqualTo("second");
    assertThat(t.get(Toy.NAMED).get("second").get(Note.TEXT)).as("an entry given no value takes every default").isEqualTo("-");
    assertThat(t.get(Toy.TAGS)).containsExactly(Map.entry("colour", "blue"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      colour: red                 | toy.colour is not a known field
      label: ''                   | toy.label must be a non-empty string
      wait_ms: 0                  | toy.wait_ms must be > 0
      wait_ms: '10'               | toy.wait_ms must be > 0
      wait_ms: 1.5                | toy.wait_ms must be > 0
      wait_ms: 99999999999999999999 | toy.wait_ms must be <= 9223372036854775807
      limit_ms: -1                | toy.limit_ms must be >= 0
      limit_ms: soon              | toy.limit_ms must be an integer
      tries: 6                    | toy.tries must be in [0, 5]
      tries: -1                   | toy.tries must be in [0, 5]
      tries: 4294967296           | toy.tries must be in [0, 5]
      tries: 1.5                  | toy.tries must be an integer
      share: 1.01                 | toy.share must be in [0, 1]
      share: .inf                 | toy.share must be a number
      share: half                 | toy.share must be a number
      rate: -0.5                  | toy.rate must be >= 0
      mode: slow                  | toy.mode must be fast or safe
      day: someday                | toy.day 'someday' is not a day
      day: 7                      | toy.day must be a non-empty string
      main: m                     | toy.main must be a mapping
      main: {}                    | toy.main.id is required
      main: {id: m, size: 2}      | toy.main.size is not a known field
      main: {id: m, weight: 0}    | toy.main.weight must be > 0
      items: []                   | toy.items must be a non-empty list
      items: a                    | toy.items must be a non-empty list
      items: [a]                  | toy.items[0] must be a mapping
      items: [{id: a}, {}]        | toy.items[1].id is required
      items: [{id: a}, {id: a}]   | toy.items[1].id 'a' is a duplicate
      named: {}                   | toy.named must name at least one item
      named: [a]                  | toy.named must be a mapping
      named: {one: two}           | toy.named.one must be a mapping
      named: {one: {text: ''}}    | toy.named.one.text must be a non-empty string
      tags: {colour: 5}           | toy.tags.colour must be a string
      tags: {5: five}             | toy.tags has a non-string key: 5
      wait_ms: 500                | toy.wait_ms must be <= toy.limit_ms
      """)
  @DisplayName("each problem names its path")
  void shouldReportAProblemWithItsPath(String field, String expected) {
    String key = field.substring(0, field.indexOf(':'));
    String yaml = (key.equals("label") ? "" : "label: x\n") + (key.equals("limit_ms") ? "" : "limit_ms: 400\n") + field + "\n";

    assertThat(problems(yaml)).containsExactly(expected);
  }

  @Test
  @DisplayName("every problem is reported at once, unknown keys first, then fields in declaration order, then rules")
  void shouldReportEveryProblemInOrder() {
    assertThat(problems("""
        wiat_ms: 5
        tries: 9
        share: 2
        items: [{id: a}, {id: a, weight: 0}]
        """)).containsExactly(
        "toy.wiat_ms is not a known field",
        "toy.label is required",
        "toy.tries must be in [0, 5]",
        "toy.share must be in [0, 1]",
        "toy.items[1].weight must be > 0",
        "toy.items[1].id 'a' is a duplicate");
  }

  @Test
  @DisplayName("a rule does not judge a field that is already refused, so one mistake is one problem")
  void shouldNotCascadeFromARefusedField() {
    assertThat(problems("label: x\nwait_ms: 0\nlimit_ms: -5\n")).containsExactly("toy.wait_ms must be > 0", "toy.limit_ms must be >= 0");
  }

  @Test
  @DisplayName("a key given twice is refused by the YAML reader, not silently overridden")
  void shouldRefuseADuplicateKey() {
    assertThat(problems("label: x\ntries: 1\ntries: 2\n")).singleElement().asString()
        .startsWith("not valid YAML: ").contains("duplicate key tries");
  }

  @Test
  @DisplayName("parse refuses a wrong literal with every problem, relative to the section")
  void shouldRefuseAWrongLiteral() {
    IllegalArgumentException e = catchThrowableOfType(IllegalArgumentException.class, () -> Toy.SECTION.parse("tries: 9"));

    assertThat(e).hasMessage("invalid manifest:\n  - label is required\n  - tries must be in [0, 5]");
  }

  @Test
  @DisplayName("the effective configuration lists every field in declaration order, defaults filled in, null where unset")
  void shouldShowTheEffectiveConfiguration() {
    JsonObject j = Toy.SECTION.parse("{label: x, items: [{id: a}], tags: {a: b, c: d}}").toJson();

    assertThat(j.fieldNames()).containsExactly("label", "wait_ms", "limit_ms", "tries", "share", "rate", "mode", "day", "main",
        "items", "named", "tags");
    assertThat(j.getLong("limit_ms")).isEqualTo(1000L);
    assertThat(j.getValue("main")).isNull();
    assertThat(j.getJsonArray("items").getJsonObject(0).encode()).isEqualTo("{\"id\":\"a\",\"weight\":1}");
    assertThat(j.getString("tags")).as("shownAs replaces the value").isEqualTo("2 tags");
  }

  @Test
  void shouldBeEqualWhenTheSameValuesWereRead() {
    assertThat(Toy.SECTION.parse("{label: x, wait_ms: 250}")).isEqualTo(Toy.SECTION.parse("label: x"))
        .hasSameHashCodeAs(Toy.SECTION.parse("label: x"));
    assertThat(Toy.SECTION.parse("label: x")).isNotEqualTo(Toy.SECTION.parse("label: y"));
  }

  @Test
  @DisplayName("what is read is immutable: lists and maps are unmodifiable copies")
  void shouldHoldOnlyUnmodifiableCollections() {
    Toy t = Toy.SECTION.parse("{label: x, items: [{id: a}], named: {n: {text: b}}, tags: {a: b}}");

    assertThatThrownBy(() -> t.get(Toy.ITEMS).clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> t.get(Toy.NAMED).clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> t.get(Toy.TAGS).clear()).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void shouldRefuseAFieldOfAnotherSection() {
    assertThatThrownBy(() -> Toy.SECTION.parse("label: x").get(Item.ID)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("a section is frozen once it has read: a field cannot be declared or changed afterwards")
  void shouldFreezeOnceRead() {
    Toy.SECTION.parse("label: x");

    assertThatThrownBy(() -> Toy.SECTION.string("late")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> Toy.WAIT_MS.byDefault(1L)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldRefuseAKeyDeclaredTwice() {
    Section<Settings> s = new Section<>(read -> read);
    s.string("a");

    assertThatThrownBy(() -> s.longs("a", 0, 1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("a");
  }

  @Test
  @DisplayName("defaults() of a section with a required field is a programming error")
  void shouldHaveNoDefaultsWithARequiredField() {
    assertThatThrownBy(Item.SECTION::defaults).isInstanceOf(IllegalStateException.class).hasMessageContaining("id is required");
  }
}
