package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.Precision;
import dev.georesolver.geo.ReverseQuery;
import static dev.georesolver.provider.Requests.COUNTRY;
import static dev.georesolver.provider.Requests.HOUSE_NUMBER;
import static dev.georesolver.provider.Requests.LOCALITY;
import static dev.georesolver.provider.Requests.POSTCODE;
import static dev.georesolver.provider.Requests.REGION;
import static dev.georesolver.provider.Requests.STREET;
import static dev.georesolver.provider.Requests.UNIT;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Set;

/**
 * An ArcGIS geocode service such as the World Geocoding Service ({@code adapter: arcgis});
 * credential default: query parameter {@code token}. The endpoint is the GeocodeServer URL.
 *
 * <p>Forward: {@code GET {endpoint}/findAddressCandidates?f=json&outSR=4326&outFields=…&
 * SingleLine=…} (the fields {@link #OUT_FIELDS} lists), or the multi-field form ({@code Address}, {@code Address2}, {@code City},
 * {@code Region}, {@code Postal}, {@code CountryCode}) when every component has a field and the
 * country is an ISO code; a bbox becomes {@code searchExtent=xmin,ymin,xmax,ymax} (WGS84, a hard
 * filter); the language goes in {@code langCode}. Reverse:
 * {@code GET {endpoint}/reverseGeocode?f=json&outSR=4326&location=lon,lat}.
 *
 * <p>Also reads the batch {@code geocodeAddresses} and legacy {@code find} bodies
 * ({@code locations[]}). The body's {@code spatialReference} decides the CRS: the hit carries its
 * {@code latestWkid}, else its {@code wkid}, as text ("4326", "102100"); only a 4326 answer is
 * range-checked as degrees. {@code score}/100 is the confidence; reverse answers carry no score and
 * get {@link #UNSCORED_CONFIDENCE}.
 *
 * <p>Errors arrive with HTTP 200 as {@code {"error": {"code": …}}}: 498 (invalid token) and 499
 * (token required) are credential failures, 400 is rejected, except a reverse lookup's "Unable to
 * find address for the specified location", which is no match; other codes follow the HTTP rules
 * (5xx transient or degradable, 429 quota). Strict validation requires the location, the spatial
 * reference, and a score and address text for candidates.
 *
 * <p>Immutable and thread-safe.
 */
public final class ArcGisAdapter extends JsonProviderAdapter {

  /** Confidence of a reverse-geocoded address, which carries no score. */
  public static final double UNSCORED_CONFIDENCE = 0.5;
  /** CRS assumed under relaxed validation when the body names none: the {@code outSR} requested. */
  static final String REQUESTED_WKID = "4326";
  /** The candidate attributes asked for: the match type and what {@link #address} reads. */
  static final String OUT_FIELDS = "Addr_type,Type,AddNum,StPreDir,StPreType,StName,StType,StDir,StAddr,Nbrhd,District,"
      + "City,Subregion,Region,RegionAbbr,Postal,CntryName,Country";

  private static final Set<String> STRUCTURED = Set.of(HOUSE_NUMBER, STREET, UNIT, LOCALITY, REGION, POSTCODE, COUNTRY);
  private static final Set<String> ROOFTOP_TYPES = Set.of("PointAddress", "Subaddress", "POI", "Parcel", "BuildingName");
  private static final Set<String> INTERPOLATED_TYPES = Set.of("StreetAddress", "StreetAddressExt", "DistanceMarker");
  private static final Set<String> STREET_TYPES = Set.of("StreetInt", "StreetBetween", "StreetName", "StreetMidBlock");
  private static final Set<String> POSTCODE_TYPES = Set.of("Postal", "PostalExt", "PostalLoc");
  private static final Set<String> LOCALITY_TYPES = Set.of("Locality", "Neighborhood", "District", "City");
  private static final Set<String> REGION_TYPES = Set.of("Subregion", "Region");


  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    OutboundRequest.Builder b = OutboundRequest.get(endpoint, "/findAddressCandidates")
        .param("f", "json")
        .param("outSR", REQUESTED_WKID)
        .param("outFields", OUT_FIELDS);
    if (structured(q)) {
      Map<String, String> c = q.components();
      b.param("Address", Requests.streetLine(c))
          .param("Address2", c.get(UNIT))
          .param("City", c.get(LOCALITY))
          .param("Region", c.get(REGION))
          .param("Postal", c.get(POSTCODE))
          .param("CountryCode", c.get(COUNTRY));
    } else {
      b.param("SingleLine", q.text());
    }
    return b.param("searchExtent", Requests.lonLatBox(q.bbox()))
        .param("langCode", Requests.language(q.language()))
        .build();
  }

  private static boolean structured(ForwardQuery q) {
    String country = q.components().get(COUNTRY);
    return Requests.structuredFits(q, STRUCTURED) && (country == null || country.matches("[A-Za-z]{2,3}"));
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, "/reverseGeocode")
        .param("f", "json")
        .param("outSR", REQUESTED_WKID)
        .param("location", Requests.num(q.lon()) + "," + Requests.num(q.lat()))
        .param("langCode", Requests.language(q.language()))
        .build();
  }

  @Override
  protected ProviderAnswer.Failed classify(ProviderResponse r, Object body) {
    JsonObject error = Parsing.object(Parsing.object(body), "error");
    if (error != null) {
      return error(error, r);
    }
    boolean ok = r.status() >= 200 && r.status() < 300;
    return ok ? null : byCode(r.status(), r, "HTTP " + r.status());
  }

  private static ProviderAnswer.Failed error(JsonObject error, ProviderResponse r) {
    String message = Parsing.string(error, "message");
    String details = String.join("; ", Parsing.strings(Parsing.array(error, "details")));
    String detail = (message == null ? "error" : message) + (details.isEmpty() ? "" : " (" + details + ")");
    if (detail.contains("Unable to find address")) {
      return new ProviderAnswer.Failed(FailureClass.NO_MATCH, detail, null);
    }
    Integer code = Parsing.integer(error, "code");
    return code == null
        ? new ProviderAnswer.Failed(FailureClass.UNCLASSIFIED, detail, null)
        : byCode(code, r, code + " " + detail);
  }

  private static ProviderAnswer.Failed byCode(int code, ProviderResponse r, String detail) {
    if (code == 498 || code == 499) {
      return new ProviderAnswer.Failed(FailureClass.CREDENTIAL, detail, null);
    }
    ProviderAnswer.Failed byStatus = HttpStatusClassifier.classifyCode(code, r, false);
    return new ProviderAnswer.Failed(byStatus.failureClass(), detail, byStatus.retryAfterMs());
  }

  @Override
  protected ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse r) {
    if (!(body instanceof JsonObject o)) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: body is not an object");
    }
    Hits hits = new Hits(mode);
    if (o.containsKey("candidates") || o.containsKey("locations")) {
      JsonArray list = Parsing.array(o, o.containsKey("candidates") ? "candidates" : "locations");
      if (list == null) {
        return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: candidates is not an array");
      }
      String crs = crs(Parsing.object(o, "spatialReference"), hits);
      if (crs == null) {
        return hits.answer();
      }
      for (int i = 0; i < list.size(); i++) {
        candidate(Parsing.object(list, i), crs, hits);
      }
      return hits.answer();
    }
    if (o.containsKey("location")) {
      reverseAddress(o, hits);
      return hits.answer();
    }
    return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: neither candidates, locations nor location");
  }

  /** The CRS a spatial reference names ({@code latestWkid}, else {@code wkid}), or null after a strict violation. */
  private static String crs(JsonObject spatialReference, Hits hits) {
    Integer wkid = Parsing.integer(spatialReference, "latestWkid");
    if (wkid == null) {
      wkid = Parsing.integer(spatialReference, "wkid");
    }
    if (hits.missingRequired(wkid, "spatialReference.wkid")) {
      return null;
    }
    return wkid == null ? REQUESTED_WKID : String.valueOf(wkid);
  }

  /**
   * A findAddressCandidates or geocodeAddresses candidate ({@code location}, {@code score},
   * {@code address}), or a legacy find location ({@code feature.geometry}, {@code attributes.Score},
   * {@code name}).
   */
  private static void candidate(JsonObject c, String crs, Hits hits) {
    JsonObject feature = Parsing.object(c, "feature");
    JsonObject attributes = Parsing.object(feature != null ? feature : c, "attributes");
    JsonObject point = feature != null ? Parsing.object(feature, "geometry") : Parsing.object(c, "location");
    double[] xy = Parsing.pair(Parsing.number(point, "x"), Parsing.number(point, "y"));
    if (xy == null) {
      hits.violation("candidate without location x/y");
      return;
    }
    Double score = feature != null ? Parsing.number(attributes, "Score") : Parsing.number(c, "score");
    String label = Parsing.string(c, feature != null ? "name" : "address");
    if (hits.missingRequired(score, "score") || hits.missingRequired(label, "address")) {
      return;
    }
    double confidence = score == null ? UNSCORED_CONFIDENCE : Parsing.clamp01(score / 100);
    add(RawHit.of(xy[0], xy[1], crs, confidence, label, precision(Parsing.string(attributes, "Addr_type")))
        .withAddress(address(attributes)), hits);
  }

  private static void reverseAddress(JsonObject o, Hits hits) {
    JsonObject location = Parsing.object(o, "location");
    double[] xy = Parsing.pair(Parsing.number(location, "x"), Parsing.number(location, "y"));
    if (xy == null) {
      hits.violation("location without x/y");
      return;
    }
    String crs = crs(Parsing.object(location, "spatialReference"), hits);
    JsonObject address = Parsing.object(o, "address");
    if (crs == null || hits.missingRequired(address, "address")) {
      return;
    }
    String label = Parsing.string(address, "LongLabel") != null ? Parsing.string(address, "LongLabel")
        : Parsing.string(address, "Match_addr") != null ? Parsing.string(address, "Match_addr")
        : Parsing.string(address, "Address");
    add(RawHit.of(xy[0], xy[1], crs, UNSCORED_CONFIDENCE, label, precision(Parsing.string(address, "Addr_type")))
        .withAddress(address(address)), hits);
  }

  /**
   * The address from a candidate's {@code attributes} or a reverse answer's {@code address}:
   * {@code AddNum}; the street from its parts ({@code StPreDir}, {@code StPreType}, {@code StName},
   * {@code StType}, {@code StDir}), else the street line ({@code StAddr}, reverse {@code Address})
   * without its leading {@code AddNum}; {@code Nbrhd} (reverse {@code Neighborhood}), else
   * {@code District}; {@code City}; {@code Subregion}; {@code Region}, else {@code RegionAbbr};
   * {@code Postal} (without {@code PostalExt}, whose joining differs by country);
   * {@code CntryName}; the alpha-3 {@code Country} (reverse {@code CountryCode}). The place type is
   * {@code Addr_type}, else {@code Type}.
   */
  static Address address(JsonObject a) {
    Address.Builder b = Address.builder();
    String number = Parsing.string(a, "AddNum");
    b.fill(Component.HOUSE_NUMBER, number);
    if (Parsing.string(a, "StName") != null) {
      b.fill(Component.ROAD, AddressFields.words(a, "StPreDir", "StPreType", "StName", "StType", "StDir"));
    } else if (number != null) {
      String line = Parsing.string(a, "StAddr") != null ? Parsing.string(a, "StAddr") : Parsing.string(a, "Address");
      String prefix = number.strip() + " ";
      if (line != null && line.strip().startsWith(prefix)) {
        b.fill(Component.ROAD, line.strip().substring(prefix.length()));
      }
    }
    AddressFields.fill(b, Component.NEIGHBOURHOOD, a, "Nbrhd", "Neighborhood", "District");
    AddressFields.fill(b, Component.LOCALITY, a, "City");
    AddressFields.fill(b, Component.COUNTY, a, "Subregion");
    AddressFields.fill(b, Component.REGION, a, "Region", "RegionAbbr");
    AddressFields.fill(b, Component.POSTCODE, a, "Postal");
    AddressFields.fill(b, Component.COUNTRY, a, "CntryName");
    AddressFields.fill(b, Component.COUNTRY_CODE, a, "Country", "CountryCode");
    AddressFields.fill(b, Component.PLACE_TYPE, a, "Addr_type", "Type");
    return b.build();
  }

  private static void add(RawHit hit, Hits hits) {
    if (REQUESTED_WKID.equals(hit.crs())) {
      hits.addWgs84(hit);
    } else {
      hits.addProjected(hit);
    }
  }

  /** The precision of an {@code Addr_type}. */
  static String precision(String addrType) {
    if (Parsing.in(ROOFTOP_TYPES, addrType)) {
      return Precision.ROOFTOP;
    }
    if (Parsing.in(INTERPOLATED_TYPES, addrType)) {
      return Precision.INTERPOLATED;
    }
    if (Parsing.in(STREET_TYPES, addrType)) {
      return Precision.STREET;
    }
    if (Parsing.in(POSTCODE_TYPES, addrType)) {
      return Precision.POSTCODE;
    }
    if (Parsing.in(LOCALITY_TYPES, addrType)) {
      return Precision.LOCALITY;
    }
    if (Parsing.in(REGION_TYPES, addrType)) {
      return Precision.REGION;
    }
    return "Country".equals(addrType) ? Precision.COUNTRY : null;
  }
}
