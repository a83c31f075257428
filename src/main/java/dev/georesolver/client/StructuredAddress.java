package dev.georesolver.client;

import io.vertx.core.json.JsonObject;

/**
 * An address given by its parts rather than as one line, sent as the request's {@code address}
 * object. Each part is optional (null: not given), but at least one must be; the resolver checks
 * each as it checks a one-line address (not blank, at most 1,000 characters in all, no control
 * characters) and names the part of a problem ({@code address.street}). Immutable and thread-safe.
 *
 * @param houseNumber {@code house_number}, e.g. {@code 10}
 * @param street {@code street}, e.g. {@code Downing St}
 * @param unit {@code unit}: flat, suite, floor
 * @param locality {@code locality}: city, town or village
 * @param region {@code region}: state, county or province
 * @param postcode {@code postcode}
 * @param country {@code country}: a name or an ISO code
 */
public record StructuredAddress(String houseNumber, String street, String unit, String locality, String region,
    String postcode, String country) {

  /** A builder with no part set. */
  public static Builder builder() {
    return new Builder();
  }

  /** The {@code address} object of the request JSON: the parts given, by their wire names. */
  public JsonObject toJson() {
    JsonObject j = new JsonObject();
    put(j, "house_number", houseNumber);
    put(j, "street", street);
    put(j, "unit", unit);
    put(j, "locality", locality);
    put(j, "region", region);
    put(j, "postcode", postcode);
    put(j, "country", country);
    return j;
  }

  private static void put(JsonObject j, String key, String value) {
    if (value != null) {
      j.put(key, value);
    }
  }

  /** Builds a {@link StructuredAddress}; each setter sets the part it is named after. Not thread-safe. */
  public static final class Builder {
    private String houseNumber;
    private String street;
    private String unit;
    private String locality;
    private String region;
    private String postcode;
    private String country;

    private Builder() {}

    public Builder houseNumber(String v) { houseNumber = v; return this; }
    public Builder street(String v) { street = v; return this; }
    public Builder unit(String v) { unit = v; return this; }
    public Builder locality(String v) { locality = v; return this; }
    public Builder region(String v) { region = v; return this; }
    public Builder postcode(String v) { postcode = v; return this; }
    public Builder country(String v) { country = v; return this; }

    /** The address; the resolver refuses one with no part set ({@code address} must have a component). */
    public StructuredAddress build() {
      return new StructuredAddress(houseNumber, street, unit, locality, region, postcode, country);
    }
  }
}
