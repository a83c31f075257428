package dev.georesolver.compat;

import dev.georesolver.compat.XmlWriting.Xml;
import io.vertx.core.buffer.Buffer;

import javax.xml.stream.XMLStreamException;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Nominatim's XML output ({@code format=xml}), in the documents Nominatim writes. Pure and
 * thread-safe.
 *
 * <ul>
 *   <li>Search: {@code <searchresults timestamp attribution querystring more_url
 *       exclude_place_ids viewbox>} holding at most one {@code <place>} with the attributes
 *       {@code place_id}, {@code ref} (the place's name, as Nominatim gives when there is no ref
 *       tag), {@code lat}, {@code lon} (7 decimals), {@code boundingbox}
 *       ({@code minlat,maxlat,minlon,maxlon}), {@code place_rank}, {@code address_rank},
 *       {@code display_name}, {@code class}, {@code type}, {@code importance}; with
 *       {@code addressdetails} its address parts are child elements named by their label
 *       ({@code <road>}, {@code <city>}, {@code <country_code>}…). {@code exclude_place_ids} lists
 *       the place returned and those the request excluded; {@code more_url} is the same search with
 *       them excluded (it answers an empty {@code searchresults}: there is no second place).
 *   <li>Reverse: {@code <reversegeocode timestamp attribution querystring>} holding
 *       {@code <result>} (the same attributes but for display name, class, type and importance;
 *       its text is the display name) and, with {@code addressdetails} (reverse's default),
 *       {@code <addressparts>}; a miss is {@code <error>Unable to geocode</error>} in the root.
 *   <li>Errors: {@code <error><code>N</code><message>…</message></error>} with status N.
 * </ul>
 *
 * <p>Fields mean what they mean in the JSON formats ({@link NominatimShapes}): the same place id,
 * ranks, box, display name and address. {@code attribution} names the tier that answered.
 * {@code timestamp} ({@code Sat, 11 Aug 2018 11:55:35 +00:00}) is when the answer was resolved, so
 * a replay states the time of what it replays and a stored answer renders the same bytes every
 * time; without an answer it is the clock's time. No OSM type or id: the place need not be an OSM
 * object.
 */
final class NominatimXml {

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss '+00:00'", Locale.ENGLISH).withZone(ZoneOffset.UTC);

  private NominatimXml() {}

  /** A found place. */
  static Rendered found(Answer a, boolean reverse, NominatimRequests.Options o, Clock clock) {
    long at = at(a, clock);
    return rendered(200, XmlWriting.xml(x -> {
      if (reverse) {
        reverseRoot(x, a, o, at);
        result(x, a, o);
      } else {
        searchRoot(x, a, o, at, List.of(NominatimShapes.placeId(a)));
        place(x, a, o);
      }
      x.end();
    }), Map.of());
  }

  /** No result: an empty {@code searchresults}, or a {@code reversegeocode} with its error. */
  static Rendered nothing(Answer refusal, boolean reverse, NominatimRequests.Options o, Clock clock) {
    long at = at(refusal, clock);
    return rendered(200, XmlWriting.xml(x -> {
      if (reverse) {
        reverseRoot(x, refusal, o, at);
        x.leaf("error", "Unable to geocode");
      } else {
        searchRoot(x, refusal, o, at, List.of());
      }
      x.end();
    }), Map.of());
  }

  /** Nominatim's XML error with its status. */
  static Rendered error(int status, String message, Map<String, String> headers) {
    return rendered(status, XmlWriting.xml(x -> x.start("error")
        .leaf("code", Integer.toString(status))
        .leaf("message", message)
        .end()), headers);
  }

  /** When the answer was resolved, else (no answer, or its time unknown) the clock's time. */
  private static long at(Answer a, Clock clock) {
    return a != null && a.resolvedAtMs() > 0 ? a.resolvedAtMs() : clock.millis();
  }

  private static Rendered rendered(int status, Buffer body, Map<String, String> headers) {
    return new Rendered(status, XmlWriting.CONTENT_TYPE, body, headers);
  }

  private static void searchRoot(Xml x, Answer a, NominatimRequests.Options o, long atMs, List<Long> returned)
      throws XMLStreamException {
    Set<Long> excluded = new LinkedHashSet<>(returned);
    excluded.addAll(o.excluded());
    String ids = excluded.stream().map(String::valueOf).collect(Collectors.joining(","));
    x.start("searchresults");
    common(x, a, o, atMs);
    String more = o.xml().moreUrl();
    if (!more.isEmpty()) {
      x.attr("more_url", more + (more.endsWith("?") ? "" : "&") + "exclude_place_ids="
          + URLEncoder.encode(ids, StandardCharsets.UTF_8) + "&format=xml");
    }
    if (!ids.isEmpty()) {
      x.attr("exclude_place_ids", ids);
    }
    if (!o.xml().viewbox().isEmpty()) {
      x.attr("viewbox", o.xml().viewbox());
    }
  }

  private static void reverseRoot(Xml x, Answer a, NominatimRequests.Options o, long atMs) throws XMLStreamException {
    x.start("reversegeocode");
    common(x, a, o, atMs);
  }

  /** The root's attributes both documents have. */
  private static void common(Xml x, Answer a, NominatimRequests.Options o, long atMs) throws XMLStreamException {
    x.attr("timestamp", TIMESTAMP.format(Instant.ofEpochMilli(atMs)))
        .attr("attribution", NominatimShapes.licence(a != null && a.resolved() ? a : null))
        .attr("querystring", o.xml().querystring());
  }

  private static void place(Xml x, Answer a, NominatimRequests.Options o) throws XMLStreamException {
    PlaceKind k = PlaceKind.of(a.precision());
    x.start("place");
    located(x, a, k);
    x.attr("display_name", NominatimShapes.displayName(a, o))
        .attr("class", k.nominatimClass())
        .attr("type", k.nominatimType())
        .attr("importance", decimal(NominatimShapes.importance(a)));
    if (o.addressDetails()) {
      addressParts(x, a);
    }
    x.end();
  }

  private static void result(Xml x, Answer a, NominatimRequests.Options o) throws XMLStreamException {
    PlaceKind k = PlaceKind.of(a.precision());
    x.start("result");
    located(x, a, k);
    x.text(NominatimShapes.displayName(a, o)).end();
    if (o.addressDetails()) {
      x.start("addressparts");
      addressParts(x, a);
      x.end();
    }
  }

  /** The attributes a search place and a reverse result share, in Nominatim's order. */
  private static void located(Xml x, Answer a, PlaceKind k) throws XMLStreamException {
    x.attr("place_id", Long.toString(NominatimShapes.placeId(a)));
    String name = NominatimShapes.name(a);
    if (!name.isEmpty()) {
      x.attr("ref", name);
    }
    double[] b = NominatimShapes.box(a, k);
    x.attr("lat", JsonWriting.fixed7(a.lat()))
        .attr("lon", JsonWriting.fixed7(a.lon()))
        .attr("boundingbox", JsonWriting.fixed7(b[0]) + "," + JsonWriting.fixed7(b[1]) + "," + JsonWriting.fixed7(b[2]) + ","
            + JsonWriting.fixed7(b[3]))
        .attr("place_rank", Integer.toString(k.rank()))
        .attr("address_rank", Integer.toString(k.rank()));
  }

  /** The address, one element per part; a label that cannot be an element name is left out. */
  private static void addressParts(Xml x, Answer a) throws XMLStreamException {
    for (Map.Entry<String, String> part : NominatimShapes.address(a).entrySet()) {
      if (XmlWriting.isName(part.getKey()) && part.getValue() != null) {
        x.leaf(part.getKey(), part.getValue());
      }
    }
  }

  /** A number as Nominatim prints importance: plain decimal, no exponent. */
  private static String decimal(double d) {
    return BigDecimal.valueOf(d).toPlainString();
  }
}
