package dev.georesolver.support;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a Nominatim answer in any of its formats (xml, json, jsonv2, geojson, geocodejson) into
 * one view, the way a client of that format reads it: XML with a real (non-validating, DTD-refusing)
 * parser, JSON with Vert.x's. A body that is not well-formed in its format fails the test. The
 * contract tests use it to run the same expectations over every format.
 */
public final class NominatimBodies {

  /** Every format Nominatim serves. */
  public static final List<String> FORMATS = List.of("xml", "json", "jsonv2", "geojson", "geocodejson");

  private NominatimBodies() {}

  /** {@link #FORMATS}, for {@code @MethodSource}. */
  public static List<String> formats() {
    return FORMATS;
  }

  /**
   * One place as its format states it; a field the format does not carry is null.
   *
   * @param address the address parts ({@code address}, XML children or {@code addressparts},
   *     geocodejson {@code admin}), or null when the answer has none (a search place in XML has no
   *     container: its parts are its children, an empty map when there are none)
   */
  public record Place(Long placeId, double lat, double lon, String displayName, String osmClass, String type,
                      Integer placeRank, Double importance, double[] box, Map<String, String> address) {}

  /**
   * An answer: its places, or Nominatim's "Unable to geocode" (a reverse miss), or an error.
   *
   * @param root the XML root element's name, or null for JSON
   * @param rootAttributes the XML root's attributes (empty for JSON)
   */
  public record Body(List<Place> places, boolean unableToGeocode, Integer errorCode, String errorMessage, String root,
                     Map<String, String> rootAttributes) {}

  /** Reads {@code text}, a {@code /search} ({@code reverse} false) or {@code /reverse} answer in {@code format}. */
  public static Body read(String format, boolean reverse, String text) {
    return format.equals("xml") ? xml(reverse, text) : json(format, reverse, text);
  }

  /** Parses XML as a client should: no DTD, no external entities. */
  public static Document parseXml(String text) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setExpandEntityReferences(false);
      DocumentBuilder b = f.newDocumentBuilder();
      b.setErrorHandler(null);
      return b.parse(new InputSource(new StringReader(text)));
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw new AssertionError("not well-formed XML: " + e.getMessage() + "\n" + text, e);
    }
  }

  /** The element children of {@code e}, in order. */
  public static List<Element> children(Element e) {
    List<Element> out = new ArrayList<>();
    NodeList nodes = e.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE) {
        out.add((Element) nodes.item(i));
      }
    }
    return out;
  }

  /** The attributes of {@code e}, in document order as the parser reports them. */
  public static Map<String, String> attributes(Element e) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < e.getAttributes().getLength(); i++) {
      Node a = e.getAttributes().item(i);
      out.put(a.getNodeName(), a.getNodeValue());
    }
    return out;
  }

  private static Body xml(boolean reverse, String text) {
    Element root = parseXml(text).getDocumentElement();
    Map<String, String> rootAttributes = attributes(root);
    if (root.getTagName().equals("error")) {
      Map<String, String> e = texts(root);
      return new Body(List.of(), false, Integer.valueOf(e.get("code")), e.get("message"), "error", rootAttributes);
    }
    List<Place> places = new ArrayList<>();
    boolean unable = false;
    if (reverse) {
      if (!root.getTagName().equals("reversegeocode")) {
        throw new AssertionError("reverse XML root is " + root.getTagName());
      }
      Element result = null;
      Map<String, String> address = null;
      for (Element c : children(root)) {
        switch (c.getTagName()) {
          case "result" -> result = c;
          case "addressparts" -> address = texts(c);
          case "error" -> unable = "Unable to geocode".equals(c.getTextContent());
          default -> throw new AssertionError("unexpected element " + c.getTagName());
        }
      }
      if (result != null) {
        places.add(xmlPlace(result, result.getTextContent(), address));
      }
    } else {
      if (!root.getTagName().equals("searchresults")) {
        throw new AssertionError("search XML root is " + root.getTagName());
      }
      for (Element c : children(root)) {
        if (!c.getTagName().equals("place")) {
          throw new AssertionError("unexpected element " + c.getTagName());
        }
        Map<String, String> address = texts(c);
        places.add(xmlPlace(c, c.getAttribute("display_name"), address));
      }
    }
    return new Body(places, unable, null, null, root.getTagName(), rootAttributes);
  }

  private static Place xmlPlace(Element e, String displayName, Map<String, String> address) {
    String[] b = e.getAttribute("boundingbox").split(",");
    double[] box = new double[] {Double.parseDouble(b[0]), Double.parseDouble(b[1]), Double.parseDouble(b[2]), Double.parseDouble(b[3])};
    return new Place(Long.valueOf(e.getAttribute("place_id")), Double.parseDouble(e.getAttribute("lat")),
        Double.parseDouble(e.getAttribute("lon")), displayName, e.hasAttribute("class") ? e.getAttribute("class") : null,
        e.hasAttribute("type") ? e.getAttribute("type") : null, Integer.valueOf(e.getAttribute("place_rank")),
        e.hasAttribute("importance") ? Double.valueOf(e.getAttribute("importance")) : null, box, address);
  }

  /** Child element name to its text. */
  private static Map<String, String> texts(Element e) {
    List<Element> cs = children(e);
    Map<String, String> out = new LinkedHashMap<>();
    for (Element c : cs) {
      out.put(c.getTagName(), c.getTextContent());
    }
    return out;
  }

  private static Body json(String format, boolean reverse, String text) {
    Object v = text.strip().startsWith("[") ? new JsonArray(text) : new JsonObject(text);
    if (v instanceof JsonObject o && o.containsKey("error")) {
      Object e = o.getValue("error");
      if (e instanceof String s) {
        return new Body(List.of(), s.equals("Unable to geocode"), null, null, null, Map.of());
      }
      JsonObject err = (JsonObject) e;
      return new Body(List.of(), false, err.getInteger("code"), err.getString("message"), null, Map.of());
    }
    List<Place> places = new ArrayList<>();
    switch (format) {
      case "json", "jsonv2" -> {
        List<JsonObject> objs = new ArrayList<>();
        if (reverse) {
          objs.add((JsonObject) v);
        } else {
          ((JsonArray) v).forEach(x -> objs.add((JsonObject) x));
        }
        for (JsonObject p : objs) {
          JsonArray bb = p.getJsonArray("boundingbox");
          places.add(new Place(p.getLong("place_id"), Double.parseDouble(p.getString("lat")), Double.parseDouble(p.getString("lon")),
              p.getString("display_name"), p.getString(format.equals("json") ? "class" : "category"), p.getString("type"),
              p.getInteger("place_rank"), p.getDouble("importance"),
              new double[] {Double.parseDouble(bb.getString(0)), Double.parseDouble(bb.getString(1)),
                  Double.parseDouble(bb.getString(2)), Double.parseDouble(bb.getString(3))},
              strings(p.getJsonObject("address"))));
        }
      }
      case "geojson" -> {
        for (Object f : ((JsonObject) v).getJsonArray("features")) {
          JsonObject feature = (JsonObject) f;
          JsonObject p = feature.getJsonObject("properties");
          JsonArray c = feature.getJsonObject("geometry").getJsonArray("coordinates");
          JsonArray bb = feature.getJsonArray("bbox");
          places.add(new Place(p.getLong("place_id"), c.getDouble(1), c.getDouble(0), p.getString("display_name"),
              p.getString("category"), p.getString("type"), p.getInteger("place_rank"), p.getDouble("importance"),
              new double[] {bb.getDouble(1), bb.getDouble(3), bb.getDouble(0), bb.getDouble(2)},
              strings(p.getJsonObject("address"))));
        }
      }
      case "geocodejson" -> {
        for (Object f : ((JsonObject) v).getJsonArray("features")) {
          JsonObject feature = (JsonObject) f;
          JsonObject g = feature.getJsonObject("properties").getJsonObject("geocoding");
          JsonArray c = feature.getJsonObject("geometry").getJsonArray("coordinates");
          places.add(new Place(g.getLong("place_id"), c.getDouble(1), c.getDouble(0), g.getString("label"), g.getString("osm_key"),
              g.getString("osm_value"), null, null, null, strings(g.getJsonObject("admin"))));
        }
      }
      default -> throw new IllegalArgumentException("not a Nominatim format: " + format);
    }
    return new Body(places, false, null, null, null, Map.of());
  }

  private static Map<String, String> strings(JsonObject o) {
    if (o == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    o.forEach(e -> out.put(e.getKey(), String.valueOf(e.getValue())));
    return out;
  }
}
