package dev.georesolver.crs;

/**
 * What moved a point into EPSG:4326: the source CRS and the proj4 definition used.
 *
 * @param sourceCrs canonical source CRS ({@code EPSG:3857}, {@code OGC:CRS84})
 * @param definition the proj4 definition string applied (empty for an identity)
 * @param definitionHash first 12 hex digits of the definition's sha256, so a pinned definition's
 *     change is visible in every result
 */
public record TransformInfo(String sourceCrs, String definition, String definitionHash) {
}
