package dev.georesolver.geo;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * A structured address: the components a provider (or the gazetteer) said the answer has, each
 * present only when known, in the provider-neutral words of {@link Component}.
 *
 * <p>{@link Component} is the one list of components: its order is the order writers use (JSON
 * members, CSV columns, renderers), its keys are the wire names. Adding a component is one constant
 * there; everything that enumerates components ({@link #forEach}, {@link #toMap}, {@link #fromMap},
 * {@link #keys()}) follows.
 *
 * <p>Values are stripped of surrounding blanks and a blank value is absent;
 * {@link Component#COUNTRY_CODE} holds only an ISO 3166-1 alpha-2 code, upper case (an alpha-3 or
 * lower-case code is read through {@link CountryCodes#alpha2}, anything else is dropped). Nothing
 * here bounds, escapes or redacts text: that is the job of whoever lets provider text in (the
 * provider package cleans every component as it cleans labels), so this value stays free of
 * policy.
 *
 * <p>Immutable and thread-safe; {@link #EMPTY} stands for "no components" (never null).
 */
public final class Address {

  /**
   * The components of an address, in writing order, with their wire names. The words mean the same
   * whatever the provider: docs/providers.md says which provider field becomes which component.
   */
  public enum Component {
    /** The house number, as written ({@code 10}, {@code 221b}, {@code 3-7}). */
    HOUSE_NUMBER("house_number"),
    /** The street, road, square or way the house number is on. */
    ROAD("road"),
    /** The finest named area inside the locality: neighbourhood, quarter, suburb or district. */
    NEIGHBOURHOOD("neighbourhood"),
    /** The city, town, village or hamlet. */
    LOCALITY("locality"),
    /** The second-order division: county, district, department, state district. */
    COUNTY("county"),
    /** The first-order division: state, province, region, constituent country. */
    REGION("region"),
    /** The postal code, as written. */
    POSTCODE("postcode"),
    /** The country's name, as the provider wrote it (in the asked language). */
    COUNTRY("country"),
    /** The ISO 3166-1 alpha-2 country code, upper case. */
    COUNTRY_CODE("country_code") {
      @Override
      String normalise(String value) {
        return CountryCodes.alpha2(value);
      }
    },
    /**
     * What kind of place the provider says it is, in the provider's own vocabulary (Nominatim
     * {@code tourism/attraction}, Google {@code street_address}, Pelias {@code address}, …); unlike
     * the hit's precision it is not mapped onto common words.
     */
    PLACE_TYPE("place_type");

    private final String key;

    Component(String key) {
      this.key = key;
    }

    /** The wire name: a JSON member, a CSV column. */
    public String key() {
      return key;
    }

    /** The component with that wire name, or null. */
    public static Component byKey(String key) {
      for (Component c : VALUES) {
        if (c.key.equals(key)) {
          return c;
        }
      }
      return null;
    }

    /** The value as stored, or null when it is not a value of this component. */
    String normalise(String value) {
      if (value == null) {
        return null;
      }
      String v = value.strip();
      return v.isEmpty() ? null : v;
    }
  }

  private static final Component[] VALUES = Component.values();
  private static final List<Component> ORDER = List.of(VALUES);
  private static final List<String> KEYS = ORDER.stream().map(Component::key).toList();

  /** No components. */
  public static final Address EMPTY = new Address(new String[VALUES.length]);

  /** Indexed by ordinal; null where absent. Never shared with a builder. */
  private final String[] values;

  private Address(String[] values) {
    this.values = values;
  }

  /** Every component, in writing order. */
  public static List<Component> components() {
    return ORDER;
  }

  /** Every component's wire name, in writing order (a header row, a column set). */
  public static List<String> keys() {
    return KEYS;
  }

  /** The component's value, or null when it is not known. */
  public String get(Component c) {
    return values[c.ordinal()];
  }

  /** Whether the component is known. */
  public boolean has(Component c) {
    return values[c.ordinal()] != null;
  }

  /** Whether no component is known. */
  public boolean isEmpty() {
    return this == EMPTY || size() == 0;
  }

  /** How many components are known. */
  public int size() {
    int n = 0;
    for (String v : values) {
      if (v != null) {
        n++;
      }
    }
    return n;
  }

  /** Hands each known component to {@code action}, in writing order. */
  public void forEach(BiConsumer<Component, String> action) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        action.accept(VALUES[i], values[i]);
      }
    }
  }

  /** The known components by wire name, in writing order; unmodifiable. */
  public Map<String, String> toMap() {
    Map<String, String> m = new LinkedHashMap<>();
    forEach((c, v) -> m.put(c.key(), v));
    return Collections.unmodifiableMap(m);
  }

  /**
   * Reads components by wire name (what {@link #toMap()} wrote, or a map that uses the same names):
   * unknown names and values that are not strings are ignored, values are normalised as by
   * {@link Builder#put}.
   */
  public static Address fromMap(Map<String, ?> map) {
    if (map == null || map.isEmpty()) {
      return EMPTY;
    }
    Builder b = builder();
    for (Component c : VALUES) {
      if (map.get(c.key()) instanceof String s) {
        b.put(c, s);
      }
    }
    return b.build();
  }

  /** This address with one component set (normalised), or removed when {@code value} is no value of it. */
  public Address with(Component c, String value) {
    return toBuilder().put(c, value).build();
  }

  /**
   * This address with {@code f} applied to every known value (a cleaner, say); each result is
   * normalised again, and one that is no value drops its component. The same instance when
   * {@code f} returns every value unchanged (the same instance).
   */
  public Address map(UnaryOperator<String> f) {
    String[] out = null;
    for (int i = 0; i < values.length; i++) {
      String v = values[i];
      if (v == null) {
        continue;
      }
      String m = f.apply(v);
      if (m != v) {
        if (out == null) {
          out = values.clone();
        }
        out[i] = VALUES[i].normalise(m);
      }
    }
    return out == null ? this : of(out);
  }

  /** A builder holding this address's components. */
  public Builder toBuilder() {
    return new Builder(values.clone());
  }

  /** A builder with no components. */
  public static Builder builder() {
    return new Builder(new String[VALUES.length]);
  }

  private static Address of(String[] values) {
    for (String v : values) {
      if (v != null) {
        return new Address(values);
      }
    }
    return EMPTY;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Address a && Arrays.equals(values, a.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  /** {@code Address{road=Downing Street, country_code=GB}}; for tests and debugging. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("Address{");
    forEach((c, v) -> sb.append(sb.length() > 8 ? ", " : "").append(c.key()).append('=').append(v));
    return sb.append('}').toString();
  }

  /**
   * Collects components; {@link #build()} makes the immutable address. Adapters call
   * {@link #fill} from the most to the least preferred provider field, so the first known value
   * wins. Not thread-safe: one per address.
   */
  public static final class Builder {

    private final String[] values;

    private Builder(String[] values) {
      this.values = values;
    }

    /**
     * Sets the component to the normalised value; a null, blank or (for the country code) invalid
     * value removes it.
     */
    public Builder put(Component c, String value) {
      values[Objects.requireNonNull(c, "component").ordinal()] = c.normalise(value);
      return this;
    }

    /** Sets the component to the normalised value only when it is not set yet and the value is one. */
    public Builder fill(Component c, String value) {
      if (values[Objects.requireNonNull(c, "component").ordinal()] == null) {
        values[c.ordinal()] = c.normalise(value);
      }
      return this;
    }

    /** Whether the component is set. */
    public boolean has(Component c) {
      return values[c.ordinal()] != null;
    }

    /** The address; {@link Address#EMPTY} when no component is set. */
    public Address build() {
      return of(values.clone());
    }
  }
}
