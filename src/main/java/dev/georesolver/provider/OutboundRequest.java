package dev.georesolver.provider;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HTTP request an adapter wants sent for one attempt. Immutable once built.
 *
 * <p>The tier adds what is not the adapter's business: the credential, the manifest's extra
 * headers and {@code Idempotency-Key}.
 *
 * @param method the HTTP method
 * @param url absolute URL including the query string, already encoded
 * @param headers header names to values
 * @param body the request body, or null
 */
public record OutboundRequest(HttpMethod method, String url, Map<String, String> headers, Buffer body) {

  public OutboundRequest {
    headers = Map.copyOf(headers);
  }

  /** Starts a GET on {@code base} (no query string yet, or one already present) plus {@code path}. */
  public static Builder get(String base, String path) {
    return new Builder(HttpMethod.GET, join(base, path));
  }

  private static String join(String base, String path) {
    if (path == null || path.isEmpty()) {
      return base;
    }
    if (base.endsWith("/") && path.startsWith("/")) {
      return base + path.substring(1);
    }
    if (!base.endsWith("/") && !path.startsWith("/")) {
      return base + "/" + path;
    }
    return base + path;
  }

  /** {@code url} with one more query parameter (value URL-encoded). */
  public static String withParam(String url, String name, String value) {
    return appendParam(url, name, value);
  }

  static String appendParam(String url, String name, String value) {
    String sep = url.indexOf('?') >= 0 ? "&" : "?";
    return url + sep + enc(name) + "=" + enc(value);
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Builds an {@link OutboundRequest}; not thread-safe. */
  public static final class Builder {
    private final HttpMethod method;
    private final StringBuilder url;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private Buffer body;
    private boolean hasQuery;

    private Builder(HttpMethod method, String url) {
      this.method = method;
      this.url = new StringBuilder(url);
      this.hasQuery = url.indexOf('?') >= 0;
    }

    /** Adds a query parameter; a null value is left out. */
    public Builder param(String name, Object value) {
      if (value == null) {
        return this;
      }
      url.append(hasQuery ? '&' : '?').append(enc(name)).append('=').append(enc(String.valueOf(value)));
      hasQuery = true;
      return this;
    }

    /** Sets a header. */
    public Builder header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    /** Sets the body. */
    public Builder body(Buffer b) {
      this.body = b;
      return this;
    }

    public OutboundRequest build() {
      return new OutboundRequest(method, url.toString(), headers, body);
    }
  }
}
