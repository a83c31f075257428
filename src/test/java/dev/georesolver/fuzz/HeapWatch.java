package dev.georesolver.fuzz;

import com.sun.management.GarbageCollectionNotificationInfo;

import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches the heap as it is after every garbage collection while open, and keeps the largest: what
 * was live at the worst moment of a run, not only at its end. A body read without bound, a bomb
 * inflated whole or answers kept at any size show here even when they are gone by the end.
 */
final class HeapWatch implements AutoCloseable {

  private final AtomicLong peak = new AtomicLong();
  private final AtomicLong collections = new AtomicLong();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::onNotification;

  private HeapWatch() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter e) {
        e.addNotificationListener(listener, null, null);
        emitters.add(e);
      }
    }
  }

  /** Starts watching. */
  static HeapWatch start() {
    return new HeapWatch();
  }

  private void onNotification(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    long used = 0;
    for (MemoryUsage u : info.getGcInfo().getMemoryUsageAfterGc().values()) {
      used += u.getUsed();
    }
    // Non-heap pools (metaspace, code cache) are in the map too: they grow with classes loaded, not
    // with what a provider sends, and are small beside the bound.
    peak.accumulateAndGet(used, Math::max);
    collections.incrementAndGet();
  }

  /** The most memory in use right after any collection so far, bytes. */
  long peakAfterGc() {
    return peak.get();
  }

  /** Forgets the peak so far: what follows is measured on its own. */
  void reset() {
    peak.set(0);
  }

  /** Collections seen. */
  long collections() {
    return collections.get();
  }

  @Override
  public void close() throws Exception {
    for (NotificationEmitter e : emitters) {
      e.removeNotificationListener(listener);
    }
  }
}
