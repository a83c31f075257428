package dev.georesolver.ingress;

import dev.georesolver.web.RequestFields;
import dev.georesolver.web.QueryString;
import dev.georesolver.web.RejectedRequest;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;

/**
 * A JSON request body: read with a size bound, then parsed strictly into request fields.
 *
 * <ul>
 *   <li>{@link #read} keeps at most {@code maxBytes}: a larger {@code Content-Length} is refused
 *       before anything is read, and a chunked body is refused the moment it passes the bound
 *       ({@link RejectedRequest#bodyTooLarge}); a body whose framing breaks fails with
 *       {@link RejectedRequest#bodyUnreadable}. Nothing is written to disk: multipart bodies are
 *       bytes like any other, and not JSON.
 *   <li>{@link #parse} takes only UTF-8 (a leading byte-order mark is skipped), exactly one JSON
 *       object with nothing after it, and no key twice in one object: a repeated key is a problem
 *       naming it ({@code q}, {@code address.street}), since which of two values counts would
 *       otherwise be the parser's choice.
 * </ul>
 *
 * Pure apart from {@link #read}, which must be called from the request's handler, before the
 * body starts arriving. Thread-safe.
 */
public final class JsonBody {

  /** Jackson's streaming parser with its default bounds on depth, number and string lengths. */
  private static final JsonFactory FACTORY = JsonFactory.builder().build();

  private JsonBody() {}

  /** Reads the body of {@code req}, at most {@code maxBytes}. */
  public static Future<Buffer> read(HttpServerRequest req, long maxBytes) {
    String declared = req.getHeader("content-length");
    if (declared != null && declaredLength(declared) > maxBytes) {
      return Future.failedFuture(RejectedRequest.bodyTooLarge(maxBytes));
    }
    Promise<Buffer> done = Promise.promise();
    Buffer body = Buffer.buffer();
    req.handler(chunk -> {
      if (done.future().isComplete()) {
        return;
      }
      if (body.length() + (long) chunk.length() > maxBytes) {
        done.tryFail(RejectedRequest.bodyTooLarge(maxBytes));
      } else {
        body.appendBuffer(chunk);
      }
    });
    req.exceptionHandler(t -> done.tryFail(RejectedRequest.bodyUnreadable()));
    req.endHandler(v -> done.tryComplete(body));
    req.resume();
    return done.future();
  }

  /** The fields of a JSON object body, or the one problem that kept it from being read. */
  public static RequestFields parse(Buffer body) {
    String text = QueryString.utf8(body.getBytes());
    if (text == null) {
      return RequestFields.invalid("body", "must be encoded in UTF-8");
    }
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    try (JsonParser p = FACTORY.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return RequestFields.invalid("body", "must be a JSON object");
      }
      JsonObject fields = object(p, "");
      if (p.nextToken() != null) {
        return RequestFields.invalid("body", "must be one JSON object with nothing after it");
      }
      return new RequestFields(fields, java.util.List.of());
    } catch (RepeatedKey e) {
      return RequestFields.invalid(e.path, "is given more than once");
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      return RequestFields.invalid("body", "must be a JSON object (the JSON is malformed"
          + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr()) + ")");
    } catch (IOException e) {
      return RequestFields.invalid("body", "must be a JSON object");
    }
  }

  /** The object whose START_OBJECT is the current token; {@code path} names it in problems. */
  private static JsonObject object(JsonParser p, String path) throws IOException {
    JsonObject o = new JsonObject();
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      String at = path.isEmpty() ? (name.isBlank() ? "body" : name) : path + "." + name;
      if (o.containsKey(name)) {
        throw new RepeatedKey(at);
      }
      p.nextToken();
      o.put(name, value(p, at));
    }
    return o;
  }

  private static JsonArray array(JsonParser p, String path) throws IOException {
    JsonArray a = new JsonArray();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      a.add(value(p, path + "[" + a.size() + "]"));
    }
    return a;
  }

  private static Object value(JsonParser p, String path) throws IOException {
    return switch (p.currentToken()) {
      case START_OBJECT -> object(p, path);
      case START_ARRAY -> array(p, path);
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw new IOException("unexpected token " + p.currentToken());
    };
  }

  private static long declaredLength(String s) {
    try {
      return Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  /** A key given twice in one object; cheap, it is control flow. */
  private static final class RepeatedKey extends IOException {
    final String path;

    RepeatedKey(String path) {
      super(path, null);
      this.path = path;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
