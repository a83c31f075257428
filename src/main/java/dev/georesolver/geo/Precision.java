package dev.georesolver.geo;


/**
 * The words adapters write in {@link RawHit#precision()}: what kind of place the point stands for,
 * from the most to the least precise. Each adapter maps its provider's own vocabulary onto these
 * (docs/providers.md lists the mappings); null means the provider did not say.
 */
public final class Precision {

  /** A building, entrance, parcel or point of interest: the point is on the thing itself. */
  public static final String ROOFTOP = "rooftop";
  /** A house number placed by interpolation along a street segment. */
  public static final String INTERPOLATED = "interpolated";
  /** A street, intersection or block, without a house number. */
  public static final String STREET = "street";
  /** A postcode area's centroid. */
  public static final String POSTCODE = "postcode";
  /** A city, town, village, district or neighbourhood. */
  public static final String LOCALITY = "locality";
  /** A county, state, province or other region below country level. */
  public static final String REGION = "region";
  /** A whole country. */
  public static final String COUNTRY = "country";

  private Precision() {}
}
