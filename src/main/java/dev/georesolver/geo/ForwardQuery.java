package dev.georesolver.geo;


import java.util.Map;

/**
 * A forward lookup as the adapters receive it.
 *
 * @param text the address as free text (for structured input, the components joined in canonical
 *     order); never blank
 * @param components structured components when the caller gave them (keys {@code house_number},
 *     {@code street}, {@code unit}, {@code locality}, {@code region}, {@code postcode},
 *     {@code country}), else empty
 * @param bbox the area the answer must lie in, or null
 * @param language preferred result language (BCP 47), or null
 */
public record ForwardQuery(String text, Map<String, String> components, Bbox bbox, String language) {

  public ForwardQuery {
    components = components == null ? Map.of() : Map.copyOf(components);
  }

  /** Free text only. */
  public static ForwardQuery of(String text) {
    return new ForwardQuery(text, Map.of(), null, null);
  }
}
