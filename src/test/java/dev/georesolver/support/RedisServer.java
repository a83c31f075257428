package dev.georesolver.support;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} started by the tests on a free port, with nothing persisted, that a
 * test may stop and start again on the same port. {@link #shared()} honours
 * {@code GEO_TEST_REDIS_URL} for tests that only need a Redis; tests that kill it start their own.
 */
public final class RedisServer implements AutoCloseable {

  private final int port;
  private final Path dir;
  private Process process;

  private RedisServer(int port, Path dir) {
    this.port = port;
    this.dir = dir;
  }

  /** Starts a private redis-server on a free port. */
  public static RedisServer start() {
    try {
      RedisServer r = new RedisServer(freePort(), Files.createTempDirectory("georesolver-redis"));
      r.startProcess();
      return r;
    } catch (IOException e) {
      throw new IllegalStateException("cannot start redis-server (is it installed? scripts/test.sh installs it): " + e.getMessage(), e);
    }
  }

  /** The URL tests should use when they do not kill Redis: {@code GEO_TEST_REDIS_URL} or a private server. */
  public static String sharedUrl(RedisServer privateOne) {
    String env = System.getenv("GEO_TEST_REDIS_URL");
    return env != null && !env.isBlank() ? env : privateOne.url();
  }

  private void startProcess() throws IOException {
    process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--protected-mode", "no")
        .redirectErrorStream(true)
        .redirectOutput(new File(dir.toFile(), "redis.log"))
        .start();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < until) {
      if (!process.isAlive()) {
        throw new IOException("redis-server exited: " + Files.readString(dir.resolve("redis.log")));
      }
      try (Socket s = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        sleep(20);
      }
    }
    throw new IOException("redis-server did not listen on " + port + " within 10 s");
  }

  /** {@code redis://127.0.0.1:port}. */
  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  /**
   * Waits until {@code key} exists in the Redis at {@code url}: writes to the shared store follow an
   * answer asynchronously, so a test that asks another instance right away would race them.
   */
  public static void awaitKey(io.vertx.core.Vertx vertx, String url, String key) {
    io.vertx.redis.client.Redis r = io.vertx.redis.client.Redis.createClient(vertx, url);
    try {
      for (int i = 0; i < 200; i++) {
        var n = r.send(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.EXISTS).arg(key)).await();
        if (n != null && n.toLong() > 0) {
          return;
        }
        sleep(10);
      }
      throw new AssertionError("key " + key + " never appeared in " + url);
    } finally {
      r.close();
    }
  }

  /** Kills the server at once (SIGKILL), as a crash would. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Freezes the server (SIGSTOP): connections stay open and commands hang, as on a stalled host. */
  public void pause() {
    signal("STOP");
  }

  /** Thaws a paused server (SIGCONT). */
  public void resume() {
    signal("CONT");
  }

  private void signal(String sig) {
    try {
      new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).inheritIO().start().waitFor();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts the server again on the same port, empty. */
  public void restart() {
    try {
      startProcess();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (process != null) {
      resume();
      kill();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
