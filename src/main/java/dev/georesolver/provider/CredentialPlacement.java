package dev.georesolver.provider;

/**
 * Where a tier's credential goes on the outbound request: a header or a query parameter. The tier
 * puts it there; it never reaches an adapter.
 *
 * @param header header name, or null
 * @param queryParam query parameter name, or null
 */
public record CredentialPlacement(String header, String queryParam) {

  public static CredentialPlacement header(String name) {
    return new CredentialPlacement(name, null);
  }

  public static CredentialPlacement queryParam(String name) {
    return new CredentialPlacement(null, name);
  }
}
