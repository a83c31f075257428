package dev.georesolver.support;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A stand-in provider on a raw socket, for the answers an HTTP server library will not write: a
 * body that never ends (chunked or read until the connection closes), a {@code Content-Length}
 * that lies, a gzip bomb, a trickle, headers of any shape. It reads each request's line and
 * headers (keep-alive: one request after another on a connection) and hands an {@link Exchange}
 * to the handler, which writes whatever bytes it likes. Counts bytes written and connections
 * closed, so a test can see that the resolver stopped reading and reset the connection.
 */
public final class RawProvider {

  /** The most bytes of request head read before the connection is dropped. */
  private static final int MAX_HEAD = 64 * 1024;

  /** One request and the socket to answer it on; use on the provider's event loop. */
  public static final class Exchange {
    private final RawProvider provider;
    private final Conn conn;
    /** The request target, e.g. {@code /geocode?q=Paris}. */
    public final String uri;
    /** Request headers, names in lower case. */
    public final Map<String, String> headers;

    private Exchange(RawProvider provider, Conn conn, String uri, Map<String, String> headers) {
      this.provider = provider;
      this.conn = conn;
      this.uri = uri;
      this.headers = headers;
    }

    /** The path without the query. */
    public String path() {
      int q = uri.indexOf('?');
      return q < 0 ? uri : uri.substring(0, q);
    }

    /** The raw query, or "". */
    public String query() {
      int q = uri.indexOf('?');
      return q < 0 ? "" : uri.substring(q + 1);
    }

    /**
     * Writes bytes as they are; false once the connection is closed. Only bytes the socket took
     * count in {@link #bytesWritten()}; a failed write marks the connection closed.
     */
    public boolean write(Buffer b) {
      if (conn.closed) {
        return false;
      }
      int n = b.length();
      conn.socket.write(b).onComplete(ar -> {
        if (ar.succeeded()) {
          provider.written.addAndGet(n);
        } else {
          conn.closed = true;
        }
      });
      return true;
    }

    /**
     * Writes {@code chunk} over and over for as long as the peer reads it, up to {@code limit}
     * bytes, yielding to the event loop between batches so a close is seen.
     */
    public void pump(Buffer chunk, long limit) {
      long[] sent = {0};
      Runnable[] step = new Runnable[1];
      step[0] = () -> {
        for (int batch = 0; batch < 16; batch++) {
          if (closed() || sent[0] >= limit) {
            return;
          }
          if (writeQueueFull()) {
            onDrain(step[0]);
            return;
          }
          write(chunk);
          sent[0] += chunk.length();
        }
        provider.vertx.runOnContext(v -> step[0].run());
      };
      step[0].run();
    }

    /** Writes ISO-8859-1 text as it is. */
    public boolean write(String s) {
      return write(Buffer.buffer(s.getBytes(StandardCharsets.ISO_8859_1)));
    }

    /** A whole answer with a {@code Content-Length}; the connection stays open for the next request. */
    public void respond(int status, String contentType, Buffer body, String... extraHeaders) {
      StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" X\r\n")
          .append("Content-Type: ").append(contentType).append("\r\n")
          .append("Content-Length: ").append(body.length()).append("\r\n");
      for (String h : extraHeaders) {
        head.append(h).append("\r\n");
      }
      write(head.append("\r\n").toString());
      write(body);
      conn.next();
    }

    /** A whole JSON answer. */
    public void json(int status, String body, String... extraHeaders) {
      respond(status, "application/json", Buffer.buffer(body), extraHeaders);
    }

    /** Whether the connection is closed (by either side). */
    public boolean closed() {
      return conn.closed;
    }

    /** Whether the socket's write queue is full (the peer is not reading). */
    public boolean writeQueueFull() {
      return conn.socket.writeQueueFull();
    }

    /** Calls {@code then} once the write queue has drained. */
    public void onDrain(Runnable then) {
      conn.socket.drainHandler(v -> then.run());
    }

    /** Closes the connection. */
    public void close() {
      conn.socket.close();
    }

    /** The provider's Vert.x, for timers. */
    public Vertx vertx() {
      return provider.vertx;
    }
  }

  private final Vertx vertx;
  private volatile Consumer<Exchange> handler;
  private final AtomicLong written = new AtomicLong();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger closedConnections = new AtomicInteger();
  private NetServer server;

  private RawProvider(Vertx vertx, Consumer<Exchange> handler) {
    this.vertx = vertx;
    this.handler = handler;
  }

  /** Starts on a free port of the loopback interface. */
  public static Future<RawProvider> start(Vertx vertx, Consumer<Exchange> handler) {
    RawProvider p = new RawProvider(vertx, handler);
    return vertx.createNetServer().connectHandler(s -> p.new Conn(s)).listen(0, "localhost").map(s -> {
      p.server = s;
      return p;
    });
  }

  /** {@code http://localhost:port} followed by {@code path}. */
  public String url(String path) {
    return "http://localhost:" + server.actualPort() + path;
  }

  /** Bytes written to every connection so far. */
  public long bytesWritten() {
    return written.get();
  }

  /** Requests read so far. */
  public int requests() {
    return requests.get();
  }

  /** Connections closed so far (by either side). */
  public int closedConnections() {
    return closedConnections.get();
  }

  /** Replaces the handler for later requests. */
  public void handle(Consumer<Exchange> h) {
    this.handler = h;
  }

  /** One connection: reads request heads, one at a time. */
  private final class Conn {
    final NetSocket socket;
    volatile boolean closed;
    private Buffer pending = Buffer.buffer();
    private boolean answering;

    Conn(NetSocket socket) {
      this.socket = socket;
      socket.handler(this::onBytes);
      socket.closeHandler(v -> {
        closed = true;
        closedConnections.incrementAndGet();
      });
      socket.exceptionHandler(t -> { });
    }

    private void onBytes(Buffer b) {
      pending.appendBuffer(b);
      if (!answering) {
        nextRequest();
      }
    }

    /** The answer to the current request is complete: read the next one. */
    void next() {
      answering = false;
      nextRequest();
    }

    private void nextRequest() {
      String text = pending.toString(StandardCharsets.ISO_8859_1);
      int end = text.indexOf("\r\n\r\n");
      if (end < 0) {
        if (pending.length() > MAX_HEAD) {
          socket.close();
        }
        return;
      }
      String[] lines = text.substring(0, end).split("\r\n");
      Map<String, String> headers = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon > 0) {
          headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
      }
      int bodyLength = headers.containsKey("content-length") ? Integer.parseInt(headers.get("content-length")) : 0;
      if (pending.length() < end + 4 + bodyLength) {
        return;
      }
      pending = pending.getBuffer(end + 4 + bodyLength, pending.length());
      String[] requestLine = lines[0].split(" ");
      answering = true;
      requests.incrementAndGet();
      handler.accept(new Exchange(RawProvider.this, this, requestLine.length > 1 ? requestLine[1] : "/", headers));
    }
  }
}
