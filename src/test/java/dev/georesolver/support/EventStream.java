package dev.georesolver.support;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A Server-Sent Events client for tests: opens {@code GET path}, parses each event ({@code event:}
 * name, {@code data:} JSON) as it arrives and queues it. Only what the resolver sends is parsed
 * (single-line data); anything else fails the wait that meets it.
 */
public final class EventStream implements AutoCloseable {

  /** One event. */
  public record Event(String name, JsonObject data) {}

  private final HttpClient client;
  private final HttpClientResponse response;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final StringBuilder pending = new StringBuilder();
  private final List<String> raw = new ArrayList<>();

  private EventStream(HttpClient client, HttpClientResponse response) {
    this.client = client;
    this.response = response;
    response.handler(buf -> onText(buf.toString()));
  }

  /** Opens the stream; {@code headers} are added to the request. */
  public static EventStream open(Vertx vertx, int port, String path, String... headers) {
    HttpClient client = vertx.createHttpClient();
    RequestOptions o = new RequestOptions().setMethod(HttpMethod.GET).setHost("localhost").setPort(port).setURI(path);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      o.addHeader(headers[i], headers[i + 1]);
    }
    // Sent from an event-loop context, so the response's future completes on that loop as the head is
    // read and the handler is set before the first chunk is handed on (from a test thread the
    // completion is queued to the loop, and a chunk read with the head could go by without a handler).
    io.vertx.core.Promise<EventStream> opened = io.vertx.core.Promise.promise();
    vertx.getOrCreateContext().runOnContext(v ->
        client.request(o).compose(req -> req.send()).map(r -> new EventStream(client, r)).onComplete(opened));
    try {
      // Bounded: a stream that never answers fails the test that opened it, never hangs the suite.
      return opened.future().await(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      client.close();
      throw new AssertionError("GET " + path + " sent no response head within 30 s");
    }
  }

  /** The response's status. */
  public int status() {
    return response.statusCode();
  }

  /** The response's headers. */
  public MultiMap headers() {
    return response.headers();
  }

  private synchronized void onText(String text) {
    pending.append(text);
    int end;
    while ((end = pending.indexOf("\n\n")) >= 0) {
      String block = pending.substring(0, end);
      pending.delete(0, end + 2);
      raw.add(block);
      String name = "message";
      String data = null;
      for (String line : block.split("\n")) {
        if (line.startsWith("event: ")) {
          name = line.substring(7);
        } else if (line.startsWith("data: ")) {
          data = line.substring(6);
        }
      }
      if (data != null) {
        events.add(new Event(name, new JsonObject(data)));
      }
    }
  }

  /** Every block received so far, as sent. */
  public synchronized List<String> raw() {
    return List.copyOf(raw);
  }

  /** The next event named {@code name} that satisfies {@code test}, skipping others; fails after {@code timeout}. */
  public Event await(String name, Predicate<JsonObject> test, Duration timeout) throws InterruptedException {
    long until = System.nanoTime() + timeout.toNanos();
    List<String> skipped = new ArrayList<>();
    for (;;) {
      long left = until - System.nanoTime();
      Event e = left > 0 ? events.poll(left, TimeUnit.NANOSECONDS) : null;
      if (e == null) {
        throw new AssertionError("no '" + name + "' event as expected within " + timeout + "; skipped: " + skipped);
      }
      if (e.name().equals(name) && test.test(e.data())) {
        return e;
      }
      skipped.add(e.name());
    }
  }

  /** The next event named {@code name}. */
  public Event await(String name, Duration timeout) throws InterruptedException {
    return await(name, d -> true, timeout);
  }

  @Override
  public void close() {
    client.close();
  }
}
