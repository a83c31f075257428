package dev.georesolver.crs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.locationtech.proj4j.BasicCoordinateTransform;
import org.locationtech.proj4j.CoordinateTransform;

/** Transforms into EPSG:4326: identities, pinned and bundled definitions, rejections, caching. */
class CrsNormalizerTest {

  /** Amersfoort / RD New with the datum shift of "Amersfoort to WGS 84 (4)" (EPSG:4833). */
  private static final String RD_NEW_PINNED = "+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889"
      + " +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel"
      + " +towgs84=565.4171,50.3319,465.5524,-0.398957388243134,0.343987817378283,-1.87740163998045,4.0725"
      + " +units=m +no_defs";
  /** RD New without any datum shift: about 100 m off, so a pin visibly changes results. */
  private static final String RD_NEW_NO_SHIFT = "+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889"
      + " +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel +towgs84=0,0,0 +units=m +no_defs";

  private final CrsNormalizer normalizer = new CrsNormalizer(Map.of());

  @Test
  void shouldPassEpsg4326ThroughUnchangedWithAnIdentityTransform() throws CrsException {
    Wgs84Point p = normalizer.toWgs84("EPSG:4326", 4.8952, 52.3702);
    assertThat(p.lon()).isEqualTo(4.8952);
    assertThat(p.lat()).isEqualTo(52.3702);
    assertThat(p.transform()).isEqualTo(new TransformInfo("EPSG:4326", "", ""));
  }

  @Test
  void shouldPassCrs84ThroughUnchangedAndNameIt() throws CrsException {
    Wgs84Point p = normalizer.toWgs84("urn:ogc:def:crs:OGC:1.3:CRS84", -73.9857, 40.7484);
    assertThat(p.lon()).isEqualTo(-73.9857);
    assertThat(p.lat()).isEqualTo(40.7484);
    assertThat(p.transform().sourceCrs()).isEqualTo("OGC:CRS84");
  }

  @Test
  @DisplayName("x is always easting, y always northing, even for a northing-first CRS such as EPSG:3006")
  void shouldReadXAsEastingEvenForNorthingFirstCrs() throws CrsException {
    // Stockholm, Sergels torg, in SWEREF99 TM (cs2cs): E 674 344.559, N 6 581 100.536
    Wgs84Point p = normalizer.toWgs84("EPSG:3006", 674_344.559, 6_581_100.536);
    assertThat(p.lon()).isCloseTo(18.0649, within(1e-6));
    assertThat(p.lat()).isCloseTo(59.3326, within(1e-6));
  }

  @Test
  void shouldTransformEsriWebMercatorAliasAndNameTheEpsgCrs() throws CrsException {
    Wgs84Point p = normalizer.toWgs84("102100", -8_238_310.24, 4_970_071.58);
    assertThat(p.lon()).isCloseTo(-74.0060, within(1e-4));
    assertThat(p.lat()).isCloseTo(40.7128, within(1e-4));
    assertThat(p.transform().sourceCrs()).isEqualTo("EPSG:3857");
    assertThat(p.transform().definition()).contains("+proj=merc");
    assertThat(p.transform().definitionHash()).isEqualTo(CrsNormalizer.shortHash(p.transform().definition()));
  }

  @Test
  void shouldTransformEsriOnlyWkidWithTheBundledReviewedDefinition() throws CrsException {
    Wgs84Point esri = normalizer.toWgs84("ESRI:102039", 1_872_164.653, 1_915_988.945);
    Wgs84Point epsg = normalizer.toWgs84("EPSG:5070", 1_872_164.653, 1_915_988.945);
    assertThat(esri.lon()).isCloseTo(epsg.lon(), within(1e-9));
    assertThat(esri.lat()).isCloseTo(epsg.lat(), within(1e-9));
    assertThat(esri.transform().sourceCrs()).isEqualTo("ESRI:102039");
    assertThat(esri.transform().definition()).isEqualTo(CrsNormalizer.bundledDefinitions().get("ESRI:102039"));
  }

  @Test
  void shouldPreferThePinnedDefinitionAndReportItsHash() throws CrsException {
    double x = 121_687.0;
    double y = 487_484.0;
    Wgs84Point bundled = normalizer.toWgs84("EPSG:28992", x, y);
    CrsNormalizer pinnedNormalizer = new CrsNormalizer(Map.of("urn:ogc:def:crs:EPSG::28992", RD_NEW_NO_SHIFT));
    Wgs84Point pinned = pinnedNormalizer.toWgs84("EPSG:28992", x, y);

    assertThat(pinned.transform().sourceCrs()).isEqualTo("EPSG:28992");
    assertThat(pinned.transform().definition()).isEqualTo(RD_NEW_NO_SHIFT);
    assertThat(pinned.transform().definitionHash())
        .isEqualTo(CrsNormalizer.shortHash(RD_NEW_NO_SHIFT))
        .hasSize(12)
        .isNotEqualTo(bundled.transform().definitionHash());
    assertThat(Math.abs(pinned.lon() - bundled.lon()) + Math.abs(pinned.lat() - bundled.lat()))
        .as("dropping the datum shift moves the point by about 100 m")
        .isGreaterThan(5e-4);
  }

  @Test
  void shouldApplyTheBundledReviewedDefinitionOverProj4jEpsg() throws CrsException {
    Wgs84Point p = normalizer.toWgs84("EPSG:2039", 219_529.584, 626_907.39);
    assertThat(p.transform().definition())
        .isEqualTo(CrsNormalizer.bundledDefinitions().get("EPSG:2039"))
        .contains("+towgs84=23.772,17.49,17.859");
  }

  @Test
  void shouldLetAPinOverrideABundledDefinition() throws CrsException {
    String pin = "+proj=tmerc +lat_0=31.73439361111111 +lon_0=35.20451694444445 +k=1.0000067"
        + " +x_0=219529.584 +y_0=626907.39 +ellps=GRS80 +towgs84=-48,55,52,0,0,0,0 +units=m +no_defs";
    Wgs84Point p = new CrsNormalizer(Map.of("EPSG:2039", pin)).toWgs84("EPSG:2039", 219_529.584, 626_907.39);
    assertThat(p.transform().definition()).isEqualTo(pin);
    assertThat(p.transform().definitionHash()).isEqualTo(CrsNormalizer.shortHash(pin));
  }

  @Test
  void shouldBundleOnlyDefinitionsProj4jReadsWithoutGrids() {
    assertThat(CrsNormalizer.bundledDefinitions()).containsKeys(
        "ESRI:102003", "ESRI:102004", "ESRI:102008", "ESRI:102009", "ESRI:102039", "EPSG:2039");
    assertThat(CrsNormalizer.problems(CrsNormalizer.bundledDefinitions())).isEmpty();
  }

  @Test
  void shouldAgreeWithTheBuiltInDefinitionWhenThePinIsTheSameTransformation() throws CrsException {
    CrsNormalizer pinnedNormalizer = new CrsNormalizer(Map.of("EPSG:28992", RD_NEW_PINNED));
    Wgs84Point pinned = pinnedNormalizer.toWgs84("EPSG:28992", 121_687.0, 487_484.0);
    Wgs84Point builtIn = normalizer.toWgs84("EPSG:28992", 121_687.0, 487_484.0);
    assertThat(pinned.lon()).isCloseTo(builtIn.lon(), within(1e-6));
    assertThat(pinned.lat()).isCloseTo(builtIn.lat(), within(1e-6));
  }

  @Test
  void shouldLetAPinDefineAnEsriOnlyWkidTheResolverDoesNotBundle() throws CrsException {
    String robinson = "+proj=robin +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs";
    assertThatThrownBy(() -> normalizer.toWgs84("ESRI:109999", 0, 0)).isInstanceOf(CrsException.class);
    Wgs84Point p = new CrsNormalizer(Map.of("ESRI:109999", robinson)).toWgs84("109999", 0, 0);
    assertThat(p.lon()).isCloseTo(0, within(1e-9));
    assertThat(p.transform().sourceCrs()).isEqualTo("ESRI:109999");
  }

  @ParameterizedTest(name = "{0} is an unknown CRS")
  @ValueSource(strings = {"EPSG:1", "EPSG:32767", "ESRI:109999", "999999"})
  void shouldRejectUnknownCrs(String crs) {
    assertThatThrownBy(() -> normalizer.toWgs84(crs, 1000, 1000))
        .isInstanceOf(CrsException.class)
        .hasMessageContaining("unknown CRS");
  }

  @Test
  void shouldRejectAnUnreadableSpelling() {
    assertThatThrownBy(() -> normalizer.toWgs84("EPSG:four", 1, 1)).isInstanceOf(CrsException.class);
  }

  @ParameterizedTest(name = "{0} ({1}, {2}) is rejected")
  @CsvSource({
      "EPSG:3857, NaN, 0",
      "EPSG:3857, 0, Infinity",
      "EPSG:4326, -Infinity, 0",
      "EPSG:4326, 200, 10",
      "EPSG:4326, 10, 95",
      "OGC:CRS84, 10, -90.5",
      "EPSG:4269, -181, 40",
      "EPSG:3857, 1e9, 0",
      "EPSG:3857, 0, 1e12",
      "EPSG:27700, 1e8, 1e8",
      "EPSG:3006, -5e7, 6.6e6",
      "EPSG:27700, 1e7, 1e7",
      "EPSG:3035, 4.3e6, -4e7",
  })
  void shouldRejectNonFiniteOrOffEarthPoints(String crs, double x, double y) {
    assertThatThrownBy(() -> normalizer.toWgs84(crs, x, y)).isInstanceOf(CrsException.class);
  }

  @Test
  @DisplayName("a point where the projection's series diverges is rejected because it does not transform back")
  void shouldRejectPointsThatDoNotSurviveARoundTrip() {
    assertThatThrownBy(() -> normalizer.toWgs84("EPSG:27700", 1_000_000.0, 1_000_000.0))
        .isInstanceOf(CrsException.class)
        .hasMessageContaining("does not transform back");
  }

  @Test
  void shouldCacheOneTransformPerSourceCrsWithinAnInstance() throws CrsException {
    CrsId id = CrsId.parse("EPSG:27700");
    CoordinateTransform first = normalizer.transformFor(id);
    normalizer.toWgs84(id, 530_034.0, 180_381.0);
    assertThat(normalizer.transformFor(CrsId.parse("urn:ogc:def:crs:EPSG::27700"))).isSameAs(first);
  }

  @Test
  @DisplayName("two instances share no transform, CRS or projection object, so each may live on its own thread")
  void shouldNotShareTransformObjectsAcrossInstances() throws CrsException {
    CrsId id = CrsId.parse("EPSG:28992");
    BasicCoordinateTransform a = (BasicCoordinateTransform) new CrsNormalizer(Map.of()).transformFor(id);
    BasicCoordinateTransform b = (BasicCoordinateTransform) new CrsNormalizer(Map.of()).transformFor(id);
    assertThat(a).isNotSameAs(b);
    assertThat(a.getSourceCRS()).isNotSameAs(b.getSourceCRS());
    assertThat(a.getSourceCRS().getProjection()).isNotSameAs(b.getSourceCRS().getProjection());
    assertThat(a.getTargetCRS().getProjection()).isNotSameAs(b.getTargetCRS().getProjection());
  }

  @Test
  void shouldListEveryProblemOfACrsDefinitionsMap() {
    Map<String, String> definitions = new LinkedHashMap<>();
    definitions.put("EPSG:28992", RD_NEW_PINNED);
    definitions.put("urn:ogc:def:crs:EPSG::28992", RD_NEW_NO_SHIFT);
    definitions.put("not a crs", RD_NEW_PINNED);
    definitions.put("EPSG:27700", "+proj=tmerc +ellps=airy +nadgrids=OSTN15_NTv2_OSGBtoETRS.gsb");
    definitions.put("EPSG:2154", "+proj=nonsense");
    definitions.put("EPSG:3006", " ");

    assertThat(CrsNormalizer.problems(definitions))
        .hasSize(5)
        .anySatisfy(p -> assertThat(p).contains("both define EPSG:28992"))
        .anySatisfy(p -> assertThat(p).contains("not a crs"))
        .anySatisfy(p -> assertThat(p).contains("EPSG:27700").contains("grid"))
        .anySatisfy(p -> assertThat(p).contains("EPSG:2154"))
        .anySatisfy(p -> assertThat(p).contains("EPSG:3006").contains("empty"));
    assertThatThrownBy(() -> new CrsNormalizer(definitions)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CrsNormalizer(Map.of("EPSG:2154", "+proj=nonsense")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("EPSG:2154");
    assertThat(CrsNormalizer.problems(Map.of("EPSG:28992", RD_NEW_PINNED))).isEmpty();
  }

  @Test
  void shouldRoundToSevenDecimals() throws CrsException {
    Wgs84Point p = normalizer.toWgs84("EPSG:4326", 4.895212345678, -52.370212345678).rounded();
    assertThat(p.lon()).isEqualTo(4.8952123);
    assertThat(p.lat()).isEqualTo(-52.3702123);
  }
}
