package dev.georesolver.provider;

import io.vertx.core.buffer.Buffer;

import java.util.Locale;
import java.util.Map;

/**
 * One provider HTTP response as the adapter sees it.
 *
 * @param status the HTTP status code
 * @param headers response headers, names in lower case
 * @param body the whole body (possibly empty, never null)
 */
public record ProviderResponse(int status, Map<String, String> headers, Buffer body) {

  public ProviderResponse {
    headers = Map.copyOf(headers);
    body = body == null ? Buffer.buffer() : body;
  }

  /** A header by case-insensitive name, or null. */
  public String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  /** A response with no headers, for tests and local adapters. */
  public static ProviderResponse of(int status, String body) {
    return new ProviderResponse(status, Map.of(), Buffer.buffer(body));
  }
}
