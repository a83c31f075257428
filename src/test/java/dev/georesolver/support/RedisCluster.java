package dev.georesolver.support;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real three-master Redis Cluster started by the tests: three {@code redis-server
 * --cluster-enabled yes} on free loopback ports, joined with {@code redis-cli --cluster create}, and
 * ready once every node reports {@code cluster_state:ok}. Nothing is persisted but each node's
 * {@code nodes.conf}, so a master killed with {@link #kill(int)} and started again with
 * {@link #restart(int)} comes back on its port owning its slots, empty. The nodes run with
 * {@code cluster-require-full-coverage no} (what docs/clusters-and-redis.md advises): the slots of a lost master
 * fail while the others keep serving. Torn down by {@link #close()}.
 */
public final class RedisCluster implements AutoCloseable {

  /** Masters in the cluster. */
  public static final int MASTERS = 3;
  /** Milliseconds a node may be unreachable before the others mark it failed. */
  static final int NODE_TIMEOUT_MS = 1000;

  private final Path dir;
  private final int[] ports = new int[MASTERS];
  /** The cluster bus ports, given explicitly: the default (port + 10000) may be taken or beyond 65535. */
  private final int[] busPorts = new int[MASTERS];
  private final Process[] processes = new Process[MASTERS];

  private RedisCluster(Path dir) {
    this.dir = dir;
  }

  /** Starts the nodes, creates the cluster and waits until it serves every slot. */
  public static RedisCluster start() {
    requireRedisCli();
    RedisCluster c;
    try {
      c = new RedisCluster(Files.createTempDirectory("georesolver-redis-cluster"));
      for (int i = 0; i < MASTERS; i++) {
        c.ports[i] = freePort();
        c.busPorts[i] = freePort();
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    try {
      for (int i = 0; i < MASTERS; i++) {
        c.startNode(i);
      }
      List<String> create = new ArrayList<>(List.of("--cluster", "create"));
      for (int p : c.ports) {
        create.add("127.0.0.1:" + p);
      }
      create.add("--cluster-yes");
      String out = cli(create.toArray(String[]::new));
      if (!out.contains("[OK] All 16384 slots covered")) {
        throw new IllegalStateException("redis-cli --cluster create failed:\n" + out);
      }
      c.awaitOk();
      return c;
    } catch (RuntimeException | IOException e) {
      c.close();
      throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
    }
  }

  private static void requireRedisCli() {
    try {
      Process p = new ProcessBuilder("redis-cli", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      if (p.waitFor() != 0) {
        throw new IOException("exit " + p.exitValue());
      }
    } catch (IOException e) {
      throw new IllegalStateException("redis-cli is needed for the Redis Cluster tests and was not found (it comes with "
          + "redis-server in Debian's redis-tools package: apt-get install redis-server; scripts/test.sh installs it): "
          + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void startNode(int i) throws IOException {
    Path nodeDir = dir.resolve("node" + i);
    Files.createDirectories(nodeDir);
    processes[i] = new ProcessBuilder("redis-server", "--port", Integer.toString(ports[i]), "--bind", "127.0.0.1",
        "--cluster-enabled", "yes", "--cluster-port", Integer.toString(busPorts[i]), "--cluster-config-file", "nodes.conf", "--cluster-node-timeout",
        Integer.toString(NODE_TIMEOUT_MS), "--cluster-require-full-coverage", "no", "--save", "", "--appendonly", "no",
        "--dir", nodeDir.toString(), "--protected-mode", "no")
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(new File(nodeDir.toFile(), "redis.log")))
        .start();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < until) {
      if (!processes[i].isAlive()) {
        throw new IOException("redis-server exited: " + Files.readString(nodeDir.resolve("redis.log")));
      }
      try (Socket s = new Socket("127.0.0.1", ports[i])) {
        return;
      } catch (IOException notYet) {
        sleep(20);
      }
    }
    throw new IOException("redis-server did not listen on " + ports[i] + " within 10 s");
  }

  /** {@code redis-cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3}. */
  public String url() {
    StringBuilder b = new StringBuilder("redis-cluster://");
    for (int i = 0; i < MASTERS; i++) {
      b.append(i == 0 ? "" : ",").append("127.0.0.1:").append(ports[i]);
    }
    return b.toString();
  }

  /** The port of node {@code i}. */
  public int port(int i) {
    return ports[i];
  }

  /** Waits until every running node reports {@code cluster_state:ok}, 30 s at most. */
  public void awaitOk() {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < until) {
      boolean ok = true;
      for (int i = 0; i < MASTERS && ok; i++) {
        ok = processes[i] == null || !processes[i].isAlive() || cli("-p", Integer.toString(ports[i]), "cluster", "info")
            .contains("cluster_state:ok");
      }
      if (ok) {
        return;
      }
      sleep(100);
    }
    throw new IllegalStateException("the Redis Cluster did not reach cluster_state:ok within 30 s");
  }

  /** Empties every master. */
  public void flushAll() {
    for (int i = 0; i < MASTERS; i++) {
      cli("-p", Integer.toString(ports[i]), "flushall");
    }
  }

  /** The hash slot of {@code key}, as the cluster computes it. */
  public int slot(String key) {
    return Integer.parseInt(cli("-p", Integer.toString(ports[0]), "cluster", "keyslot", key).trim());
  }

  /** Which node (0..2) serves the slot of {@code key}. */
  public int nodeFor(String key) {
    int slot = slot(key);
    for (int i = 0; i < MASTERS; i++) {
      if (processes[i] == null || !processes[i].isAlive()) {
        continue;
      }
      for (String line : cli("-p", Integer.toString(ports[i]), "cluster", "nodes").split("\n")) {
        String[] f = line.trim().split(" ");
        if (f.length < 9 || !f[2].contains("myself")) {
          continue;
        }
        for (int j = 8; j < f.length; j++) {
          String[] range = f[j].split("-");
          if (range[0].startsWith("[")) {
            continue;
          }
          int lo = Integer.parseInt(range[0]);
          int hi = range.length > 1 ? Integer.parseInt(range[1]) : lo;
          if (slot >= lo && slot <= hi) {
            return i;
          }
        }
      }
    }
    throw new IllegalStateException("no running node serves slot " + slot);
  }

  /** Whether {@code key} exists, asked of the node that serves it. */
  public boolean exists(String key) {
    return "1".equals(cli("-c", "-p", Integer.toString(ports[nodeFor(key)]), "exists", key).trim());
  }

  /** Waits until {@code key} exists: writes follow an answer asynchronously. */
  public void awaitKey(String key) {
    for (int i = 0; i < 300; i++) {
      if (exists(key)) {
        return;
      }
      sleep(10);
    }
    throw new AssertionError("key " + key + " never appeared in the cluster");
  }

  /** Keys matching {@code pattern} on every running master. */
  public List<String> keys(String pattern) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < MASTERS; i++) {
      if (processes[i] != null && processes[i].isAlive()) {
        cli("-p", Integer.toString(ports[i]), "--scan", "--pattern", pattern).lines().filter(l -> !l.isBlank()).forEach(out::add);
      }
    }
    return out;
  }

  /** Kills master {@code i} at once (SIGKILL), as a crash would. */
  public void kill(int i) {
    processes[i].destroyForcibly();
    try {
      processes[i].waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits until a surviving node sees master {@code i} as failed. */
  public void awaitFailed(int i) {
    int other = (i + 1) % MASTERS;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < until) {
      String nodes = cli("-p", Integer.toString(ports[other]), "cluster", "nodes");
      boolean failed = nodes.lines().anyMatch(l -> l.contains(":" + ports[i] + "@") && l.contains("fail") && !l.contains("fail?"));
      if (failed) {
        return;
      }
      sleep(100);
    }
    throw new IllegalStateException("node " + i + " was never marked failed");
  }

  /** Starts master {@code i} again on its port with its nodes.conf (empty of data) and waits for cluster_state:ok. */
  public void restart(int i) {
    try {
      startNode(i);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    awaitOk();
  }

  @Override
  public void close() {
    for (Process p : processes) {
      if (p != null) {
        p.destroyForcibly();
        try {
          p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    try (var s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // best effort
    }
  }

  /** Runs redis-cli with {@code args}, 20 s at most, and returns what it printed. */
  static String cli(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add("redis-cli");
    cmd.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("redis-cli " + String.join(" ", args) + " hung");
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException("redis-cli failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
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

  @Override
  public String toString() {
    return "RedisCluster" + java.util.Arrays.stream(ports).boxed().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
  }
}
