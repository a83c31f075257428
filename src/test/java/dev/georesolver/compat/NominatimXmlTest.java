package dev.georesolver.compat;

import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.geo.Direction;
import dev.georesolver.support.NominatimBodies;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static dev.georesolver.support.NominatimBodies.attributes;
import static dev.georesolver.support.NominatimBodies.children;
import static org.assertj.core.api.Assertions.assertThat;

/** Nominatim's XML documents, element by element and attribute by attribute, read with a real parser. */
class NominatimXmlTest {

  /** 2026-01-01T00:00:00Z, the resolved_at_ms of {@link Results}. */
  private static final String RESOLVED_AT = "Thu, 01 Jan 2026 00:00:00 +00:00";
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-14T15:09:26Z"), ZoneOffset.UTC);

  private static Element root(Rendered r) {
    assertThat(r.contentType()).isEqualTo("text/xml; charset=utf-8");
    assertThat(r.text()).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<");
    return NominatimBodies.parseXml(r.text()).getDocumentElement();
  }

  private static NominatimRequests.Options search(boolean details, List<Long> excluded, NominatimRequests.XmlContext xml) {
    return new NominatimRequests.Options(NominatimFormat.XML, details, 10, "10 Downing St, London", excluded, xml);
  }

  private static Outcome found(JsonObject result) {
    return Outcome.of(Results.answer(result));
  }

  @Test
  @DisplayName("search: searchresults with timestamp, attribution, querystring, more_url and exclude_place_ids; one place with Nominatim's attributes")
  void search() {
    NominatimRequests.XmlContext ctx = new NominatimRequests.XmlContext("10 Downing St, London",
        "https://geo.example/search?q=10+Downing+St%2C+London&limit=3", "-0.2,51.4,0.1,51.6");
    Outcome o = found(Results.resolved("exact", "rooftop", false));
    long id = NominatimShapes.placeId(((Outcome.Found) o).answer());
    Element root = root(NominatimShapes.render(o, Direction.FORWARD, search(false, List.of(5L), ctx), CLOCK));
    assertThat(root.getTagName()).isEqualTo("searchresults");
    assertThat(attributes(root)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "timestamp", RESOLVED_AT,
        "attribution", "Resolved by georesolver from primary (exact); the provider's terms apply.",
        "querystring", "10 Downing St, London",
        "more_url", "https://geo.example/search?q=10+Downing+St%2C+London&limit=3&exclude_place_ids=" + id + "%2C5&format=xml",
        "exclude_place_ids", id + ",5",
        "viewbox", "-0.2,51.4,0.1,51.6"));
    List<Element> places = children(root);
    assertThat(places).hasSize(1);
    Element p = places.get(0);
    assertThat(p.getTagName()).isEqualTo("place");
    assertThat(attributes(p)).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
        Map.entry("place_id", Long.toString(id)),
        Map.entry("ref", "10 Downing Street"),
        Map.entry("lat", "51.5034000"),
        Map.entry("lon", "-0.1276000"),
        Map.entry("boundingbox", "51.5033000,51.5035000,-0.1277000,-0.1275000"),
        Map.entry("place_rank", "30"),
        Map.entry("address_rank", "30"),
        Map.entry("display_name", "10 Downing Street, London SW1A 2AA, UK"),
        Map.entry("class", "place"),
        Map.entry("type", "house"),
        Map.entry("importance", "0.9")));
    assertThat(children(p)).as("the answer has no address parts").isEmpty();
  }

  @Test
  @DisplayName("search with nothing found: an empty searchresults stating when, and more_url/exclude_place_ids only as far as they say something")
  void searchNothing() {
    Outcome none = Outcome.of(Results.answer(Results.refused("not_found", "found nothing")));
    Element root = root(NominatimShapes.render(none, Direction.FORWARD,
        search(false, List.of(), new NominatimRequests.XmlContext("1 Nowhere Lane", "/search?q=1+Nowhere+Lane", "")), CLOCK));
    assertThat(root.getTagName()).isEqualTo("searchresults");
    assertThat(children(root)).isEmpty();
    assertThat(attributes(root)).containsEntry("timestamp", RESOLVED_AT)
        .containsEntry("attribution", "Resolved by georesolver; the answering provider's terms apply.")
        .containsEntry("more_url", "/search?q=1+Nowhere+Lane&exclude_place_ids=&format=xml")
        .doesNotContainKeys("exclude_place_ids", "viewbox");
    Element empty = root(NominatimShapes.render(new Outcome.NotFound(null), Direction.FORWARD,
        search(false, List.of(), new NominatimRequests.XmlContext("", "", "")), CLOCK));
    assertThat(attributes(empty)).as("no answer: the clock's time; no more_url when there is none")
        .containsExactlyInAnyOrderEntriesOf(Map.of("timestamp", "Sat, 14 Mar 2026 15:09:26 +00:00",
            "attribution", "Resolved by georesolver; the answering provider's terms apply.", "querystring", ""));
  }

  @Test
  @DisplayName("reverse: reversegeocode with result (its text the display name) and addressparts with addressdetails")
  void reverse() {
    NominatimRequests.Options o = new NominatimRequests.Options(NominatimFormat.XML, true, 1, "51.5034, -0.1276", List.of(),
        new NominatimRequests.XmlContext("lat=51.5034&lon=-0.1276&format=xml&zoom=18", "", ""));
    Element root = root(NominatimShapes.render(found(Results.resolved("exact", "street", false)), Direction.REVERSE, o, CLOCK));
    assertThat(root.getTagName()).isEqualTo("reversegeocode");
    assertThat(attributes(root)).containsExactlyInAnyOrderEntriesOf(Map.of("timestamp", RESOLVED_AT,
        "attribution", "Resolved by georesolver from primary (exact); the provider's terms apply.",
        "querystring", "lat=51.5034&lon=-0.1276&format=xml&zoom=18"));
    List<Element> cs = children(root);
    assertThat(cs).extracting(Element::getTagName).containsExactly("result", "addressparts");
    Element result = cs.get(0);
    assertThat(result.getTextContent()).isEqualTo("10 Downing Street, London SW1A 2AA, UK");
    assertThat(attributes(result)).containsEntry("lat", "51.5034000").containsEntry("lon", "-0.1276000")
        .containsEntry("place_rank", "26").containsEntry("address_rank", "26").containsEntry("ref", "10 Downing Street")
        .containsEntry("boundingbox", "51.5024000,51.5044000,-0.1286000,-0.1266000")
        .containsKey("place_id").doesNotContainKeys("display_name", "class", "type", "importance", "osm_type", "osm_id");
    assertThat(children(cs.get(1))).isEmpty();

    NominatimRequests.Options plain = new NominatimRequests.Options(NominatimFormat.XML, false, 1, "", List.of(),
        NominatimRequests.XmlContext.NONE);
    assertThat(children(root(NominatimShapes.render(found(Results.resolved("exact", "street", false)), Direction.REVERSE, plain, CLOCK))))
        .extracting(Element::getTagName).containsExactly("result");
  }

  @Test
  @DisplayName("a reverse miss is <reversegeocode …><error>Unable to geocode</error></reversegeocode>, HTTP 200")
  void reverseMiss() {
    Rendered r = NominatimShapes.render(Outcome.of(Results.answer(Results.refused("not_found", "found nothing"))), Direction.REVERSE,
        new NominatimRequests.Options(NominatimFormat.XML, true, 1, "", List.of(), new NominatimRequests.XmlContext("lat=0.5&lon=0.5&format=xml", "", "")),
        CLOCK);
    assertThat(r.status()).isEqualTo(200);
    Element root = root(r);
    assertThat(root.getTagName()).isEqualTo("reversegeocode");
    assertThat(attributes(root)).containsEntry("querystring", "lat=0.5&lon=0.5&format=xml").containsEntry("timestamp", RESOLVED_AT);
    List<Element> cs = children(root);
    assertThat(cs).hasSize(1);
    assertThat(cs.get(0).getTagName()).isEqualTo("error");
    assertThat(cs.get(0).getTextContent()).isEqualTo("Unable to geocode");
  }

  @Test
  @DisplayName("an error is <error><code>N</code><message>…</message></error> with status N and nothing else")
  void error() {
    Rendered r = NominatimShapes.render(new Outcome.Invalid("limit", "Parameter 'limit' must be a number."), Direction.FORWARD,
        search(false, List.of(), NominatimRequests.XmlContext.NONE), CLOCK);
    assertThat(r.status()).isEqualTo(400);
    Element root = root(r);
    assertThat(root.getTagName()).isEqualTo("error");
    assertThat(attributes(root)).isEmpty();
    assertThat(children(root)).extracting(Element::getTagName).containsExactly("code", "message");
    assertThat(children(root).get(0).getTextContent()).isEqualTo("400");
    assertThat(children(root).get(1).getTextContent()).isEqualTo("Parameter 'limit' must be a number.");
  }

  @Test
  @DisplayName("hostile text from a provider or a client cannot break the document: markup is escaped, characters XML cannot carry become U+FFFD")
  void hostileText() {
    String label = "<script>alert(\"x\")</script> & 'Ü' ]]> \u0000\u0001\u001b\uFFFE\uD800 😀 \"/><place a=\"";
    String cleaned = "<script>alert(\"x\")</script> & 'Ü' ]]> \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD 😀 \"/><place a=\"";
    JsonObject result = Results.resolved("exact", "rooftop", false).put("label", label)
        .put("resolution_source", "tier<&>\"'").put("notice", "x");
    String query = "q=\"><evil/>&amp;\u0007";
    NominatimRequests.XmlContext ctx = new NominatimRequests.XmlContext(query, "/search?q=%3C&x=\"<>", "");
    Element root = root(NominatimShapes.render(found(result), Direction.FORWARD, search(true, List.of(), ctx), CLOCK));
    assertThat(root.getAttribute("querystring")).isEqualTo("q=\"><evil/>&amp;\uFFFD");
    assertThat(root.getAttribute("attribution")).contains("tier<&>\"'");
    assertThat(root.getAttribute("more_url")).startsWith("/search?q=%3C&x=\"<>&exclude_place_ids=");
    assertThat(children(root)).hasSize(1);
    Element place = children(root).get(0);
    assertThat(place.getAttribute("display_name")).isEqualTo(cleaned);
    assertThat(place.getAttribute("ref")).isEqualTo("<script>alert(\"x\")</script> & 'Ü' ]]> \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD 😀 \"/><place a=\"");
    assertThat(children(place)).isEmpty();

    Element rev = root(NominatimShapes.render(found(result), Direction.REVERSE,
        new NominatimRequests.Options(NominatimFormat.XML, true, 1, "", List.of(), ctx), CLOCK));
    assertThat(children(rev)).extracting(Element::getTagName).containsExactly("result", "addressparts");
    assertThat(children(rev).get(0).getTextContent()).isEqualTo(cleaned);

    Element err = root(NominatimShapes.render(new Outcome.Invalid("q", "Bad <q> & \u0002 \"x\"."), Direction.FORWARD,
        search(false, List.of(), ctx), CLOCK));
    assertThat(children(err).get(1).getTextContent()).isEqualTo("Bad <q> & \uFFFD \"x\".");
  }

  @Test
  @DisplayName("random text of any UTF-16 units, as label, question and error message, always yields a well-formed document carrying it cleaned")
  void randomText() {
    java.util.Random random = new java.util.Random(26);
    for (int i = 0; i < 300; i++) {
      StringBuilder b = new StringBuilder();
      int n = random.nextInt(40);
      for (int j = 0; j < n; j++) {
        int pick = random.nextInt(6);
        b.append(switch (pick) {
          case 0 -> (char) random.nextInt(0x20);
          case 1 -> "<>&\"']]>".charAt(random.nextInt(8));
          case 2 -> (char) (0xD800 + random.nextInt(0x800));
          case 3 -> (char) (0xFFF0 + random.nextInt(16));
          default -> (char) random.nextInt(0x10000);
        });
      }
      String text = b.toString();
      String expected = XmlWriting.clean(text);
      JsonObject result = Results.resolved("exact", "rooftop", false).put("label", "x, " + text);
      NominatimRequests.XmlContext ctx = new NominatimRequests.XmlContext(text, "", "");
      Element root = root(NominatimShapes.render(found(result), Direction.FORWARD, search(false, List.of(), ctx), CLOCK));
      assertThat(root.getAttribute("querystring")).isEqualTo(normalizedAttribute(expected));
      assertThat(children(root).get(0).getAttribute("display_name")).isEqualTo(normalizedAttribute("x, " + expected));
      Element rev = root(NominatimShapes.render(found(result), Direction.REVERSE,
          new NominatimRequests.Options(NominatimFormat.XML, false, 1, "", List.of(), ctx), CLOCK));
      assertThat(children(rev).get(0).getTextContent()).isEqualTo(normalizedText("x, " + expected));
      Element err = root(NominatimShapes.render(new Outcome.Failed(text), Direction.FORWARD, search(false, List.of(), ctx), CLOCK));
      assertThat(children(err).get(1).getTextContent()).isEqualTo(normalizedText(expected));
    }
  }

  /** What an XML parser hands back for an attribute: tab, line feed and carriage return become spaces. */
  private static String normalizedAttribute(String s) {
    return normalizedText(s).replace('\t', ' ').replace('\n', ' ');
  }

  /** What an XML parser hands back for text: a carriage return (alone or before a line feed) becomes a line feed. */
  private static String normalizedText(String s) {
    return s.replace("\r\n", "\n").replace('\r', '\n');
  }

  @Test
  @DisplayName("cleaning keeps every character XML 1.0 allows (tab, newlines, pairs beyond the BMP) and only replaces the others")
  void cleaning() {
    assertThat(XmlWriting.clean("a\tb\nc\rd é 😀 \uE000 \uFFFD")).isEqualTo("a\tb\nc\rd é 😀 \uE000 \uFFFD");
    assertThat(XmlWriting.clean("\uDC00x\uD83D")).isEqualTo("\uFFFDx\uFFFD");
    assertThat(XmlWriting.clean("\u0008\uFFFF")).isEqualTo("\uFFFD\uFFFD");
    String s = "plain";
    assertThat(XmlWriting.clean(s)).isSameAs(s);
    assertThat(XmlWriting.isName("country_code")).isTrue();
    assertThat(XmlWriting.isName("ISO3166-2-lvl4")).isTrue();
    assertThat(XmlWriting.isName("1st")).isFalse();
    assertThat(XmlWriting.isName("a b")).isFalse();
    assertThat(XmlWriting.isName("x><y")).isFalse();
    assertThat(XmlWriting.isName("")).isFalse();
  }

  @Test
  @DisplayName("a stored answer renders the same bytes every time, read back from its stored form or fresh")
  void storedAnswerRendersTheSame() {
    JsonObject result = Results.resolved("exact", "rooftop", false);
    StoredAnswer stored = StoredAnswer.of(Results.result(result));
    NominatimRequests.Options o = search(true, List.of(), new NominatimRequests.XmlContext("q", "/search?q=q", ""));
    Rendered fresh = NominatimShapes.render(Outcome.of(Results.answer(result)), Direction.FORWARD, o, CLOCK);
    Rendered replayed = NominatimShapes.render(Outcome.of(Answer.of(stored)), Direction.FORWARD, o,
        Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC));
    assertThat(replayed.text()).isEqualTo(fresh.text());
  }
}
