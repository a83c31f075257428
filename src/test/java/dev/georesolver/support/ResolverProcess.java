package dev.georesolver.support;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The resolver as its own process ({@code java dev.georesolver.cli.Main …}), as an operator runs it,
 * on the main classpath only (no test resources, so no {@code logback-test.xml}). Every line it
 * writes to stdout and stderr is kept.
 */
public final class ResolverProcess implements AutoCloseable {

  private static final Pattern LISTENING = Pattern.compile("listening on port (\\d+)");
  /** The line of a node that runs no ingress: ready, with no port. */
  private static final Pattern NODE_READY = Pattern.compile("georesolver node ready, no HTTP port");

  private final Process process;
  private final List<String> stdout = Collections.synchronizedList(new ArrayList<>());
  private final List<String> stderr = Collections.synchronizedList(new ArrayList<>());
  private volatile int port = -1;

  private final List<Thread> readers = new ArrayList<>(2);

  private ResolverProcess(Process process) {
    this.process = process;
    readers.add(reader(process.getInputStream(), stdout, true));
    readers.add(reader(process.getErrorStream(), stderr, false));
    readers.forEach(Thread::start);
  }

  /** The test JVM's classpath without the test classes and resources. */
  public static String mainClasspath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.endsWith("test-classes") && !e.endsWith("test-classes/"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** Starts {@code Main} with {@code args} and {@code env} added to this JVM's environment; waits until it listens. */
  public static ResolverProcess start(Map<String, String> env, String... args) throws IOException, InterruptedException {
    return start(env, List.of(), 30, args);
  }

  /** As {@link #start(Map, String...)}, waiting at most {@code startSeconds} for it to listen (a loaded machine starts a JVM slowly). */
  public static ResolverProcess start(int startSeconds, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    return start(env, List.of(), startSeconds, args);
  }

  /**
   * Starts {@code Main} with {@code jvmArgs} (system properties, say) before the class, waiting up
   * to {@code startSeconds} until it listens, or, for a node without the ingress role, until it says
   * it is ready ({@link #port()} is then 0).
   */
  public static ResolverProcess start(Map<String, String> env, List<String> jvmArgs, int startSeconds, String... args)
      throws IOException, InterruptedException {
    return start(List.of(), env, jvmArgs, startSeconds, args);
  }

  /**
   * As {@link #start(Map, String...)}, with SIGHUP's disposition set before the JVM starts:
   * {@code "DEFAULT"} or {@code "IGNORE"}. A process inherits an ignored SIGHUP from whoever
   * started it (nohup, some CI runners), and the JVM then leaves the signal ignored; Perl (essential
   * on Debian, present on macOS) sets the disposition and execs the JVM in its place, same pid.
   */
  public static ResolverProcess startWithHangUp(String disposition, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    if (!disposition.equals("DEFAULT") && !disposition.equals("IGNORE")) {
      throw new IllegalArgumentException("disposition must be DEFAULT or IGNORE");
    }
    return start(List.of("perl", "-e", "$SIG{HUP} = '" + disposition + "'; exec @ARGV or die \"exec: $!\\n\""), env, List.of(), 30,
        args);
  }

  private static ResolverProcess start(List<String> launcher, Map<String, String> env, List<String> jvmArgs, int startSeconds,
      String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(launcher);
    cmd.addAll(List.of(javaBin(), "-Xmx256m"));
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of("-cp", mainClasspath(), "dev.georesolver.cli.Main"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    ResolverProcess p = new ResolverProcess(pb.start());
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(startSeconds);
    while (p.port < 0) {
      if (!p.process.isAlive() || System.nanoTime() > until) {
        p.close();
        throw new IOException("resolver did not start; stdout:\n" + String.join("\n", p.stdout()) + "\nstderr:\n"
            + String.join("\n", p.stderr()));
      }
      Thread.sleep(20);
    }
    return p;
  }

  /** The {@code java} that runs this JVM. */
  public static String javaBin() {
    return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
  }

  private Thread reader(java.io.InputStream in, List<String> into, boolean watchForPort) {
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          into.add(line);
          Matcher m = LISTENING.matcher(line);
          if (watchForPort && port < 0 && m.find()) {
            port = Integer.parseInt(m.group(1));
          } else if (watchForPort && port < 0 && NODE_READY.matcher(line).find()) {
            port = 0;
          }
        }
      } catch (IOException ignored) {
        // the process ended
      }
    }, "resolver-process-reader");
    t.setDaemon(true);
    return t;
  }

  /** The process id (to send it a signal). */
  public long pid() {
    return process.pid();
  }

  /** The port it listens on. */
  public int port() {
    return port;
  }

  /** Every stdout line so far. */
  public List<String> stdout() {
    synchronized (stdout) {
      return List.copyOf(stdout);
    }
  }

  /** Every stderr line so far. */
  public List<String> stderr() {
    synchronized (stderr) {
      return List.copyOf(stderr);
    }
  }

  /** Kills the process at once (SIGKILL, as {@code kill -9}), as a crash would, and waits for it to end. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    for (Thread t : readers) {
      t.join(10_000);
    }
  }

  /** Whether the process still runs. */
  public boolean alive() {
    return process.isAlive();
  }

  /** Stops the process (SIGTERM, then SIGKILL after 10 s) and waits for its output to be read. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    // Every line the process wrote is read before its output is looked at (a loaded machine may
    // take longer than any fixed pause to schedule the readers).
    for (Thread t : readers) {
      t.join(10_000);
    }
  }
}
