package dev.georesolver.fuzz;

import dev.georesolver.support.RawHttp;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Connections that hold on without ever completing a request, opened all through a fuzz run:
 * every second a few that send nothing and a few that trickle a header byte every 100 ms. Each must
 * be closed by the server within its header deadline plus some slack; those that are not are
 * counted. One thread does it all, so the run's clients are not slowed.
 */
final class HostileConnections implements AutoCloseable {

  private static final int SILENT_PER_SECOND = 5;
  private static final int TRICKLING_PER_SECOND = 2;

  private record Held(Socket socket, long openedAt, boolean trickles) {}

  private final int port;
  private final long shedWithinMs;
  private final List<Held> held = new ArrayList<>();
  private final AtomicInteger opened = new AtomicInteger();
  private final AtomicInteger notShed = new AtomicInteger();
  private final Thread thread;

  /**
   * @param shedWithinMs how long after opening a connection must have been closed by the server
   */
  HostileConnections(int port, long shedWithinMs) {
    this.port = port;
    this.shedWithinMs = shedWithinMs;
    this.thread = new Thread(this::loop, "fuzz-hostile-connections");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    long nextOpen = 0;
    while (!Thread.currentThread().isInterrupted()) {
      long now = System.nanoTime();
      if (now >= nextOpen) {
        open(SILENT_PER_SECOND, false);
        open(TRICKLING_PER_SECOND, true);
        nextOpen = now + 1_000_000_000L;
      }
      for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
        Held h = it.next();
        if (h.trickles()) {
          try {
            h.socket().getOutputStream().write('a');
          } catch (IOException e) {
            // closed by the server: what should happen
          }
        }
        if ((now - h.openedAt()) / 1_000_000 > shedWithinMs) {
          check(h, 1);
          it.remove();
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void open(int n, boolean trickles) {
    for (int k = 0; k < n; k++) {
      try {
        held.add(new Held(RawHttp.open(port, trickles ? "GET /v1/geocode?q=Paris HTTP/1.1\r\nX-Slow: " : ""), System.nanoTime(),
            trickles));
        opened.incrementAndGet();
      } catch (IOException e) {
        // refused at the cap: also fine
      }
    }
  }

  private void check(Held h, long waitMs) {
    try {
      if (!RawHttp.closedWithin(h.socket(), waitMs)) {
        notShed.incrementAndGet();
      }
      h.socket().close();
    } catch (IOException e) {
      // closed
    }
  }

  /** How many were opened. */
  int opened() {
    return opened.get();
  }

  /** How many the server had not closed in time. */
  int notShed() {
    return notShed.get();
  }

  /** Stops opening, then checks the ones still held, waiting up to their deadline for each. */
  @Override
  public void close() throws InterruptedException {
    thread.interrupt();
    thread.join();
    for (Held h : held) {
      check(h, Math.max(1, shedWithinMs - (System.nanoTime() - h.openedAt()) / 1_000_000));
    }
    held.clear();
  }
}
