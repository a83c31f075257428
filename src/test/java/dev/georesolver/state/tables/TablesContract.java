package dev.georesolver.state.tables;

import dev.georesolver.support.OnContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The primitives' contract, written once and run against every backend (each subclass makes one):
 * what a row, an index, a counter and a log do, and what a transaction guarantees.
 */
public abstract class TablesContract {

  /** A fresh backend whose keys no other test uses, and the context to call it on. */
  protected abstract Tables open(OnContext on, String namespace);

  /** The context the backend is used on (a worker for a blocking backend). */
  protected abstract OnContext context();

  protected Tables tables;
  protected OnContext on;
  protected String ns;
  private Table t;
  private Log l;

  @BeforeEach
  void openTables() {
    on = context();
    ns = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    tables = open(on, ns);
    t = Table.of(ns, "things", "by_score", "other");
    l = new Log(ns, "events");
  }

  @AfterEach
  void closeTables() {
    if (tables != null) {
      on.await(() -> tables.close());
    }
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  <T> T tx(java.util.function.Function<Txn, Future<T>> body) {
    return on.await(() -> tables.transact(body));
  }

  <T> T rd(java.util.function.Function<Txn, Future<T>> body) {
    return on.await(() -> tables.read(body));
  }

  Row row(String key) {
    return rd(x -> x.get(t, key));
  }

  List<Row> rows(List<String> keys) {
    return rd(x -> x.get(t, keys));
  }

  List<Txn.Scored> range(String index, double min, double max, int offset, int limit) {
    return rd(x -> x.range(t, index, min, max, offset, limit));
  }

  long count(String index) {
    return rd(x -> x.count(t, index));
  }

  Map<String, Long> counters() {
    return rd(x -> x.counters(t));
  }

  long lastSeq() {
    return rd(x -> x.lastSeq(l));
  }

  List<Entry> entries(long after, int limit) {
    return rd(x -> x.read(l, after, limit));
  }

  @Test
  @DisplayName("a row that was never written is absent with version 0; each write makes it one version more")
  void rowsCountTheirVersions() {
    assertThat(row("a")).satisfies(r -> {
      assertThat(r.exists()).isFalse();
      assertThat(r.version()).isZero();
      assertThat(r.body()).isNull();
    });
    tx(x -> {
      x.put(t, "a", b("one"), Map.of());
      return Future.succeededFuture(null);
    });
    tx(x -> {
      x.put(t, "a", b("two"), Map.of());
      return Future.succeededFuture(null);
    });
    Row r = row("a");
    assertThat(r.version()).isEqualTo(2);
    assertThat(r.text()).isEqualTo("two");
  }

  @Test
  @DisplayName("bodies are bytes: any byte, colons and empty bodies come back as written")
  void bodiesAreBinarySafe() {
    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    tx(x -> {
      x.put(t, "bin", all, Map.of());
      x.put(t, "colons", b("1:2:3"), Map.of());
      x.put(t, "empty", new byte[0], Map.of());
      return Future.succeededFuture(null);
    });
    List<Row> rows = rows(List.of("bin", "colons", "empty", "none"));
    assertThat(rows.get(0).body()).isEqualTo(all);
    assertThat(rows.get(1).text()).isEqualTo("1:2:3");
    assertThat(rows.get(2).body()).isEmpty();
    assertThat(rows.get(2).exists()).isTrue();
    assertThat(rows.get(3).exists()).isFalse();
  }

  @Test
  @DisplayName("an index orders its members by score, then key; a write names every index the row is in")
  void indexesOrderByScoreThenKey() {
    tx(x -> {
      x.put(t, "c", b("c"), Map.of("by_score", 2.0));
      x.put(t, "b", b("b"), Map.of("by_score", 1.0, "other", 5.0));
      x.put(t, "a", b("a"), Map.of("by_score", 2.0));
      x.put(t, "d", b("d"), Map.of());
      return Future.succeededFuture(null);
    });
    assertThat(keys(range("by_score", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, 10)))
        .containsExactly("b", "a", "c");
    assertThat(range("by_score", 2, 2, 0, 10)).extracting(Txn.Scored::score).containsExactly(2.0, 2.0);
    assertThat(keys(range("by_score", 0, 10, 1, 1))).containsExactly("a");
    assertThat(count("by_score")).isEqualTo(3);
    assertThat(count("other")).isEqualTo(1);
    // b leaves "other" and moves in "by_score"; c is deleted with its memberships
    tx(x -> {
      x.put(t, "b", b("b2"), Map.of("by_score", 3.0));
      x.delete(t, "c");
      return Future.succeededFuture(null);
    });
    assertThat(keys(range("by_score", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, 10)))
        .containsExactly("a", "b");
    assertThat(count("other")).isZero();
    assertThat(row("c").exists()).isFalse();
  }

  @Test
  @DisplayName("scores keep whole milliseconds exactly")
  void scoresKeepMilliseconds() {
    double ms = 1_767_225_600_123.0;
    tx(x -> {
      x.put(t, "m", b("m"), Map.of("by_score", ms));
      return Future.succeededFuture(null);
    });
    assertThat(range("by_score", ms, ms, 0, 1)).extracting(Txn.Scored::score).containsExactly(ms);
  }

  @Test
  @DisplayName("counters start at 0 and add what they are given, negative or not")
  void countersAdd() {
    tx(x -> {
      x.add(t, "pending", 3);
      x.add(t, "done", 1);
      return Future.succeededFuture(null);
    });
    tx(x -> {
      x.add(t, "pending", -2);
      return Future.succeededFuture(null);
    });
    assertThat(counters()).containsEntry("pending", 1L).containsEntry("done", 1L).doesNotContainKey("dead");
  }

  @Test
  @DisplayName("a log numbers its entries from 1, reads after a number, and keeps counting after a trim")
  void logsNumberTheirEntries() {
    assertThat(lastSeq()).isZero();
    tx(x -> x.lastSeq(l).map(last -> {
      x.append(l, last + 1, b("a"));
      x.append(l, last + 2, b("b"));
      x.append(l, last + 3, b("c"));
      return null;
    }));
    assertThat(entries(0, 10)).extracting(Entry::seq).containsExactly(1L, 2L, 3L);
    assertThat(entries(1, 1)).extracting(Entry::text).containsExactly("b");
    tx(x -> {
      x.trim(l, 2);
      return Future.succeededFuture(null);
    });
    assertThat(entries(0, 10)).extracting(Entry::seq).containsExactly(3L);
    assertThat(lastSeq()).isEqualTo(3);
    tx(x -> x.lastSeq(l).map(last -> {
      x.append(l, last + 1, b("d"));
      return null;
    }));
    assertThat(entries(0, 10)).extracting(Entry::seq).containsExactly(3L, 4L);
  }

  @Test
  @DisplayName("an append whose number is not above the log's last is refused, and nothing of its transaction is written")
  void appendsTakeAHigherNumberOnly() {
    tx(x -> x.lastSeq(l).map(last -> {
      x.append(l, last + 1, b("first"));
      return null;
    }));
    Throwable e = on.failure(() -> tables.transact(x -> x.lastSeq(l).map(last -> {
      x.put(t, "side", b("effect"), Map.of());
      x.append(l, last, b("again"));
      return null;
    })));
    assertThat(e).hasMessageContaining("next number");
    assertThat(entries(0, 10)).extracting(Entry::text).containsExactly("first");
    assertThat(row("side").exists()).isFalse();
  }

  @Test
  @DisplayName("a log may skip numbers (a migration keeps another layout's) and goes on from the highest")
  void logsMayLeaveGaps() {
    tx(x -> x.lastSeq(l).map(last -> {
      x.append(l, 10, b("ten"));
      x.append(l, 25, b("twenty-five"));
      return null;
    }));
    assertThat(lastSeq()).isEqualTo(25);
    assertThat(entries(10, 10)).extracting(Entry::seq).containsExactly(25L);
  }

  @Test
  @DisplayName("a transaction that fails writes nothing")
  void aFailedTransactionWritesNothing() {
    Throwable e = on.failure(() -> tables.transact(x -> {
      x.put(t, "x", b("x"), Map.of("by_score", 1.0));
      x.add(t, "n", 1);
      return Future.failedFuture(new IllegalStateException("decided against it"));
    }));
    assertThat(e).hasMessageContaining("decided against it");
    assertThat(row("x").exists()).isFalse();
    assertThat(count("by_score")).isZero();
    assertThat(counters()).isEmpty();
  }

  @Test
  @DisplayName("a transaction reads its own row writes")
  void readsItsOwnWrites() {
    tx(x -> {
      x.put(t, "r", b("first"), Map.of());
      return Future.succeededFuture(null);
    });
    Row seen = tx(x -> x.get(t, "r").compose(before -> {
      x.put(t, "r", b("second"), Map.of());
      return x.get(t, "r");
    }));
    assertThat(seen.text()).isEqualTo("second");
    assertThat(seen.version()).isEqualTo(2);
    assertThat(row("r").version()).isEqualTo(2);
  }

  @Test
  @DisplayName("a read-only view refuses to write")
  void readOnlyViewsRefuseWrites() {
    Throwable e = on.failure(() -> tables.read(x -> {
      x.put(t, "w", b("w"), Map.of());
      return Future.succeededFuture(null);
    }));
    assertThat(e).hasMessageContaining("read-only");
  }

  @Test
  @DisplayName("transactions that read and write the same row one after another never lose an update")
  void sequentialReadModifyWrite() {
    for (int i = 0; i < 20; i++) {
      tx(x -> x.get(t, "n").map(r -> {
        long n = r.exists() ? Long.parseLong(r.text()) : 0;
        x.put(t, "n", b(Long.toString(n + 1)), Map.of());
        return null;
      }));
    }
    assertThat(row("n").text()).isEqualTo("20");
  }

  @Test
  @DisplayName("when two writers race on a row, the one that read before the other wrote runs again and sees the write")
  void aLostRaceRunsAgain() {
    if (!tables.shared()) {
      // A backend written by one process alone runs transactions one at a time: no race to lose.
      assertThat(tables.kind()).isEqualTo("sqlite");
      return;
    }
    Tables second = open(on, ns);
    List<Integer> runs = new ArrayList<>();
    Promise<Void> otherCommitted = Promise.promise();
    Long result = on.await(() -> tables.transact(x -> {
      runs.add(runs.size() + 1);
      return x.get(t, "race").compose(r -> {
        long n = r.exists() ? Long.parseLong(r.text()) : 0;
        Future<Void> wait = runs.size() == 1
            ? second.transact(y -> y.get(t, "race").map(o -> {
                y.put(t, "race", b("100"), Map.of());
                return (Void) null;
              })).onComplete(ar -> otherCommitted.tryComplete())
            : Future.succeededFuture();
        return wait.map(v -> {
          x.put(t, "race", b(Long.toString(n + 1)), Map.of());
          return n + 1;
        });
      });
    }));
    assertThat(runs).containsExactly(1, 2);
    assertThat(result).isEqualTo(101);
    assertThat(row("race").text()).isEqualTo("101");
  }

  static List<String> keys(List<Txn.Scored> s) {
    return s.stream().map(Txn.Scored::key).toList();
  }
}
