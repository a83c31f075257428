package dev.georesolver.crs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** How provider CRS spellings are read: forms, Esri aliases, axis-order flags. */
class CrsIdTest {

  @ParameterizedTest(name = "\"{0}\" is EPSG:4326")
  @ValueSource(strings = {
      "EPSG:4326", "epsg:4326", "  EPSG:4326\t", "4326", "ESRI:4326",
      "urn:ogc:def:crs:EPSG::4326", "urn:ogc:def:crs:EPSG:9.9.1:4326", "urn:ogc:def:crs:EPSG:6.6:4326",
      "urn:ogc:def:crs:EPSG:4326", "urn:x-ogc:def:crs:EPSG:4326", "urn:x-ogc:def:crs:EPSG:6.11.2:4326",
      "URN:OGC:DEF:CRS:EPSG::4326",
      "http://www.opengis.net/def/crs/EPSG/0/4326", "https://www.opengis.net/def/crs/EPSG/0/4326",
      "http://www.opengis.net/def/crs/EPSG/9.9.1/4326"})
  void shouldReadEveryEpsgSpelling(String spelling) throws CrsException {
    assertThat(CrsId.parse(spelling)).isEqualTo(CrsId.WGS84);
  }

  @ParameterizedTest(name = "\"{0}\" is OGC:CRS84")
  @ValueSource(strings = {
      "CRS84", "crs84", "OGC:CRS84", "CRS:84", " ogc:crs84 ",
      "urn:ogc:def:crs:OGC:1.3:CRS84", "urn:ogc:def:crs:OGC::CRS84", "urn:ogc:def:crs:OGC:CRS84",
      "http://www.opengis.net/def/crs/OGC/1.3/CRS84", "https://www.opengis.net/def/crs/OGC/1.3/CRS84"})
  void shouldReadEveryCrs84Spelling(String spelling) throws CrsException {
    CrsId id = CrsId.parse(spelling);
    assertThat(id).isEqualTo(CrsId.CRS84);
    assertThat(id.northingFirst()).isFalse();
    assertThat(id.epsg()).isEqualTo(4326);
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
      "102100, EPSG:3857",
      "102113, EPSG:3857",
      "ESRI:102100, EPSG:3857",
      "EPSG:102100, EPSG:3857",
      "urn:ogc:def:crs:EPSG::102100, EPSG:3857",
      "900913, EPSG:3857",
      "EPSG:900913, EPSG:3857",
      "102718, EPSG:2263",
      "ESRI:3006, EPSG:3006",
      "3857, EPSG:3857",
  })
  void shouldMapEsriWkidsToTheEpsgCodeArcGisReportsAsLatestWkid(String spelling, String canonical) throws CrsException {
    CrsId id = CrsId.parse(spelling);
    assertThat(id.canonical()).isEqualTo(canonical);
    assertThat(id.epsg()).isEqualTo(Integer.parseInt(canonical.substring(5)));
  }

  @ParameterizedTest(name = "{0} is the Esri-only {1}")
  @CsvSource({
      "102008, ESRI:102008",
      "ESRI:102039, ESRI:102039",
      "urn:ogc:def:crs:ESRI::102003, ESRI:102003",
      "http://www.opengis.net/def/crs/ESRI/0/102004, ESRI:102004",
      "EPSG:102009, ESRI:102009",
  })
  void shouldKeepEsriOnlyWkidsUnderTheEsriAuthority(String spelling, String canonical) throws CrsException {
    CrsId id = CrsId.parse(spelling);
    assertThat(id.canonical()).isEqualTo(canonical);
    assertThat(id.epsg()).isZero();
    assertThat(id.northingFirst()).isFalse();
    assertThat(id.isWgs84()).isFalse();
  }

  @ParameterizedTest(name = "EPSG:{0} northing first: {1}")
  @CsvSource({
      "4326, true", "4258, true", "4269, true", "4267, true", "4979, true",
      "3006, true", "2193, true", "3035, true", "31468, true", "2056, false",
      "3857, false", "27700, false", "2154, false", "25832, false", "32633, false",
      "2263, false", "28992, false", "31370, false", "5070, false",
  })
  void shouldFlagAuthorityAxisOrderAsTheEpsgDefinitionDoes(int code, boolean northingFirst) throws CrsException {
    assertThat(CrsId.parse("EPSG:" + code).northingFirst()).isEqualTo(northingFirst);
    assertThat(CrsId.ofCode(code).northingFirst()).isEqualTo(northingFirst);
  }

  @ParameterizedTest(name = "\"{0}\" is rejected")
  @NullAndEmptySource
  @ValueSource(strings = {
      " ", "EPSG:", "EPSG:abc", "EPSG:0", "0", "-4326", "EPSG:-4326", "EPSG:4326x", "EPSG:4326.0",
      "4326.5", "EPSG::4326", "WGS84", "CRS83", "CRS 84", "urn:ogc:def:crs:EPSG::", "urn:ogc:def:crs:EPSG:x:4326",
      "urn:ogc:def:crs:FOO::4326", "http://example.com/def/crs/EPSG/0/4326", "http://www.opengis.net/def/crs/EPSG//4326",
      "EPSG:1234567890", "+proj=longlat +datum=WGS84", "EPSG:4326;DROP"})
  void shouldRejectGarbageSpellings(String spelling) {
    assertThatThrownBy(() -> CrsId.parse(spelling)).isInstanceOf(CrsException.class);
  }

  @Test
  void shouldRefuseNonPositiveCodes() {
    assertThatThrownBy(() -> CrsId.ofCode(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldTreatOnlyEpsg4326AndCrs84AsWgs84() throws CrsException {
    assertThat(CrsId.WGS84.isWgs84()).isTrue();
    assertThat(CrsId.CRS84.isWgs84()).isTrue();
    assertThat(CrsId.parse("EPSG:4258").isWgs84()).isFalse();
    assertThat(CrsId.parse("EPSG:3857").isWgs84()).isFalse();
  }

  @Test
  @DisplayName("an authority-ordered pair is swapped into x=easting/lon, y=northing/lat only when the authority puts northing first")
  void shouldPutAuthorityOrderedPairsIntoEastingNorthingOrder() throws CrsException {
    assertThat(CrsId.WGS84.toEastingNorthing(52.37, 4.89)).isEqualTo(new CrsId.EastingNorthing(4.89, 52.37));
    assertThat(CrsId.CRS84.toEastingNorthing(4.89, 52.37)).isEqualTo(new CrsId.EastingNorthing(4.89, 52.37));
    assertThat(CrsId.parse("EPSG:3006").toEastingNorthing(6_580_822.0, 674_032.0))
        .isEqualTo(new CrsId.EastingNorthing(674_032.0, 6_580_822.0));
    assertThat(CrsId.parse("EPSG:27700").toEastingNorthing(530_034.0, 180_381.0))
        .isEqualTo(new CrsId.EastingNorthing(530_034.0, 180_381.0));
  }
}
