package dev.georesolver.support;

import io.vertx.core.json.JsonObject;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP/1.1 client on a plain socket, for what HTTP client libraries will not send or hide: bytes
 * exactly as given (malformed escapes, broken chunk framing, oversized lines), silent and trickling
 * connections, and whether the server closed the connection. Blocking: call from the test thread,
 * never from an event loop.
 */
public final class RawHttp {

  private RawHttp() {}

  /**
   * An answer read from a socket.
   *
   * @param status the status code, or -1 when the connection closed (or timed out) without one
   * @param headers header names in lower case
   * @param body the body as UTF-8 text
   */
  public record Response(int status, Map<String, String> headers, String body) {

    /** The header's value, or null. */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** The body as JSON. */
    public JsonObject json() {
      return new JsonObject(body);
    }

    /** Whether this is an RFC 9457 problem whose status is the response's. */
    public boolean isProblem() {
      return "application/problem+json".equals(header("content-type")) && json().getInteger("status") == status;
    }

    @Override
    public String toString() {
      return status + " " + headers + " " + body;
    }
  }

  /** Sends {@code request} (ISO-8859-1, so each char is one byte) and reads one answer. */
  public static Response exchange(int port, String request) {
    return exchange(port, request.getBytes(StandardCharsets.ISO_8859_1), 5000);
  }

  /** Sends {@code request} on a new connection and reads one answer, waiting at most {@code timeoutMs}. */
  public static Response exchange(int port, byte[] request, int timeoutMs) {
    try (Socket s = new Socket("localhost", port)) {
      s.setSoTimeout(timeoutMs);
      s.getOutputStream().write(request);
      s.getOutputStream().flush();
      return read(s.getInputStream());
    } catch (IOException e) {
      throw new IllegalStateException("exchange with port " + port + " failed: " + e, e);
    }
  }

  /** Reads one answer from an open connection (the socket's read timeout applies). */
  public static Response read(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    try {
      // The last four bytes read, to find the blank line that ends the head.
      for (int last = 0; last != 0x0D0A0D0A; ) {
        int b = in.read();
        if (b < 0) {
          return new Response(-1, Map.of(), "");
        }
        head.write(b);
        last = last << 8 | b;
      }
    } catch (SocketTimeoutException e) {
      return new Response(-1, Map.of(), "");
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new HashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
      }
    }
    String length = headers.get("content-length");
    String type = headers.getOrDefault("content-type", "");
    if (type.startsWith("text/event-stream")) {
      // An event stream does not end: its status and headers are the answer; the caller closes it.
      return new Response(status, headers, "");
    }
    byte[] body = "chunked".equalsIgnoreCase(headers.get("transfer-encoding")) ? chunked(in)
        : length == null ? new byte[0] : in.readNBytes(Integer.parseInt(length));
    return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
  }

  private static byte[] chunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
      body.write(in.readNBytes(size));
      in.readNBytes(2);
    }
    in.readNBytes(2);
    return body.toByteArray();
  }

  private static int chunkSize(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
      if (b != '\r') {
        line.append((char) b);
      }
    }
    int semi = line.indexOf(";");
    return Integer.parseInt((semi < 0 ? line : line.substring(0, semi)).toString().trim(), 16);
  }

  /** Opens a connection and sends {@code bytes} on it (maybe none), leaving it open. */
  public static Socket open(int port, String bytes) throws IOException {
    Socket s = new Socket("localhost", port);
    OutputStream out = s.getOutputStream();
    out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return s;
  }

  /**
   * Whether the server closes {@code s} within {@code withinMs}: a read sees the end of the stream
   * or a reset. Anything the server sends first is skipped.
   */
  public static boolean closedWithin(Socket s, long withinMs) throws IOException {
    long end = System.nanoTime() + withinMs * 1_000_000;
    while (System.nanoTime() < end) {
      s.setSoTimeout((int) Math.max(1, (end - System.nanoTime()) / 1_000_000));
      try {
        if (s.getInputStream().read() < 0) {
          return true;
        }
      } catch (SocketTimeoutException e) {
        return false;
      } catch (IOException e) {
        return true;
      }
    }
    return false;
  }

  /** A GET request line with headers for {@code pathAndQuery}, closing after the answer. */
  public static String get(String pathAndQuery) {
    return "GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  }

  /** A POST of {@code json} (UTF-8) to {@code path}, closing after the answer. */
  public static byte[] post(String path, String json) {
    return post(path, json.getBytes(StandardCharsets.UTF_8));
  }

  /** A POST of {@code body}, whatever its bytes, as JSON to {@code path}, closing after the answer. */
  public static byte[] post(String path, byte[] body) {
    byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
        + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = new byte[head.length + body.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(body, 0, all, head.length, body.length);
    return all;
  }
}
