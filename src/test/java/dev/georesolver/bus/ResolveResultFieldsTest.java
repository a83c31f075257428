package dev.georesolver.bus;

import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every {@link ResolveResult} component, found by reflection so a new one is covered without
 * editing this test: it has a builder setter, {@code toBuilder} copies it, the JSON writes and reads
 * it, and a stored answer's redelivery keeps it. A field forgotten in any of these steps fails here.
 */
class ResolveResultFieldsTest {

  /** Field names that belong to each delivery rather than to the stored answer. */
  private static final Set<String> DELIVERY_FIELDS =
      Set.of("intent", "trace_id", "elapsed_ms", "replayed", "replay_age_s", "coalesced");

  private static final RecordComponent[] COMPONENTS = ResolveResult.class.getRecordComponents();

  /**
   * A value for the component that differs from the builder's default and from the other
   * components' values. A field of a type not listed here fails the test until a sample is added.
   */
  private static Object sample(RecordComponent c) {
    Class<?> t = c.getType();
    int n = Arrays.asList(COMPONENTS).indexOf(c) + 1;
    if (t == String.class) {
      return c.getName().equals("status") ? ResolveResult.RESOLVED : "value of " + c.getName();
    } else if (t == Double.class) {
      return n + 0.25;
    } else if (t == Long.class || t == long.class) {
      return 1_000L + n;
    } else if (t == boolean.class) {
      return true;
    } else if (t == Direction.class) {
      return Direction.REVERSE;
    } else if (t == Claim.class) {
      return Claim.OPEN_DATA;
    } else if (t == Address.class) {
      return Address.builder().put(Address.Component.LOCALITY, "value of " + c.getName())
          .put(Address.Component.COUNTRY_CODE, "BA").build();
    } else if (t == TransformInfo.class) {
      return Samples.TRANSFORM;
    } else if (t == List.class && c.getGenericType() instanceof ParameterizedType p
        && p.getActualTypeArguments()[0] == Attempt.class) {
      return Samples.ATTEMPTS;
    }
    return fail("no sample value for component " + c.getName() + " of type " + c.getGenericType()
        + ": add one to ResolveResultFieldsTest.sample");
  }

  /** A result with every component set to its sample, built through the canonical constructor. */
  private static ResolveResult everyField() throws Exception {
    Class<?>[] types = Arrays.stream(COMPONENTS).map(RecordComponent::getType).toArray(Class<?>[]::new);
    Constructor<ResolveResult> ctor = ResolveResult.class.getDeclaredConstructor(types);
    return ctor.newInstance(Arrays.stream(COMPONENTS).map(ResolveResultFieldsTest::sample).toArray());
  }

  @Test
  @DisplayName("each component has a builder setter of its name that sets it, and only it")
  void shouldSetEveryFieldThroughTheBuilder() throws Exception {
    ResolveResult.Builder b = ResolveResult.builder();
    for (RecordComponent c : COMPONENTS) {
      Method setter;
      try {
        setter = ResolveResult.Builder.class.getMethod(c.getName(), c.getType());
      } catch (NoSuchMethodException e) {
        throw new AssertionError("ResolveResult.Builder has no setter " + c.getName() + "(" + c.getType().getSimpleName() + ")");
      }
      setter.invoke(b, sample(c));
    }
    ResolveResult built = b.build();

    for (RecordComponent c : COMPONENTS) {
      assertThat(c.getAccessor().invoke(built)).as(c.getName()).isEqualTo(sample(c));
    }
    assertThat(built).isEqualTo(everyField());
  }

  @Test
  void shouldCopyEveryFieldThroughToBuilder() throws Exception {
    ResolveResult r = everyField();

    assertThat(r.toBuilder().build()).isEqualTo(r);
  }

  @Test
  @DisplayName("every field is written to the JSON and read back")
  void shouldWriteAndReadEveryField() throws Exception {
    ResolveResult r = everyField();

    assertThat(ResolveResult.fromJson(r.toJson())).isEqualTo(r);
    assertThat(ResolveResult.fromJson(new JsonObject(r.toJson().encode()))).isEqualTo(r);
  }

  @Test
  @DisplayName("a stored answer keeps every field but the delivery ones, and a redelivery writes the whole result")
  void shouldKeepEveryFieldThroughTheStore() throws Exception {
    ResolveResult r = everyField();
    JsonObject whole = r.toJson();
    JsonObject stored = StoredAnswer.of(r).toJson();
    Redelivery again = new Redelivery(StoredAnswer.of(r), r.intent(), r.traceId(), r.elapsedMs(), r.replayAgeS(),
        r.coalesced(), null, r.resolvedAtMs());

    Set<String> expectedStable = new HashSet<>(whole.fieldNames());
    expectedStable.removeAll(DELIVERY_FIELDS);
    assertThat(stored.fieldNames()).containsExactlyInAnyOrderElementsOf(expectedStable);
    assertThat(again.toJson()).isEqualTo(whole);
    assertThat(ResolveResult.fromJson(again.toJson())).isEqualTo(r);
  }
}
