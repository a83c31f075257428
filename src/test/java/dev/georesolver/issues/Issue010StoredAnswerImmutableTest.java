package dev.georesolver.issues;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.DedupeClaim;
import dev.georesolver.bus.DedupeComplete;
import dev.georesolver.bus.DedupeVerdict;
import dev.georesolver.bus.Redelivery;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.geo.Claim;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** A stored answer, shared by identity between threads, cannot be changed through anything it or its messages hand out. */
class Issue010StoredAnswerImmutableTest {

  private static final ResolveResult RESULT = ResolveResult.builder()
      .status(ResolveResult.RESOLVED)
      .lon(2.3376)
      .lat(48.8606)
      .label("Musée du Louvre, Paris")
      .resolutionSource("primary")
      .claim(Claim.EXACT)
      .intent("describe")
      .idempotencyKey("ab12cd34")
      .traceId("trace-1")
      .attempts(List.of(new Attempt("primary", "hit", 1, 12, null)))
      .resolvedAtMs(1_767_225_600_000L)
      .build();

  private static final StoredAnswer ANSWER = StoredAnswer.of(RESULT);

  /** The objects the dedupe verticle and the chain pass to each other and to ingress by identity. */
  private static List<Object> shared() {
    return List.of(RESULT, ANSWER, ANSWER.replayed(null, 0, "measure", "trace-2", 3, 60), ANSWER.joined(null, 0, "describe", "trace-3", 4),
        DedupeVerdict.replay(ANSWER, 60_000), new DedupeComplete("ab12cd34", "ab12cd34|describe|FORWARD", RESULT, 1000),
        new DedupeClaim("ab12cd34", "ab12cd34|describe|FORWARD", 1000, "exact"));
  }

  @Test
  @DisplayName("every buffer or array handed out is a new copy: scribbling on it changes nothing shared")
  void shouldHandOutOnlyCopies() throws Exception {
    int checked = 0;
    for (Object o : shared()) {
      String before = json(o);
      for (Method m : o.getClass().getMethods()) {
        if (m.getParameterCount() > 0 || Modifier.isStatic(m.getModifiers())
            || (m.getReturnType() != Buffer.class && !m.getReturnType().isArray())) {
          continue;
        }
        Object first = m.invoke(o);
        Object second = m.invoke(o);
        assertThat(first).as(o.getClass().getSimpleName() + "." + m.getName() + "() hands out a new copy each call")
            .isNotSameAs(second);
        scribble(first);
        checked++;
        assertThat(json(o)).as("after scribbling on " + o.getClass().getSimpleName() + "." + m.getName() + "()")
            .isEqualTo(before);
      }
    }
    assertThat(checked).as("methods handing out bytes, checked").isGreaterThanOrEqualTo(4);
  }

  @Test
  @DisplayName("many threads delivering one stored answer at once all write the same bytes")
  void shouldDeliverTheSameBytesFromManyThreads() throws Exception {
    Redelivery replay = ANSWER.replayed(null, 0, "measure", "trace-2", 3, 60);
    String expected = replay.toBuffer().toString();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> all = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        all.add(pool.submit((Callable<Boolean>) () -> {
          for (int i = 0; i < 5_000; i++) {
            Buffer b = replay.toBuffer();
            if (!b.toString().equals(expected)) {
              return false;
            }
            scribble(b);
          }
          return true;
        }));
      }
      for (Future<Boolean> f : all) {
        assertThat(f.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(ANSWER.replayed(null, 0, "measure", "trace-2", 3, 60).toBuffer().toString()).isEqualTo(expected);
  }

  private static String json(Object o) throws Exception {
    return o.getClass().getMethod("toJson").invoke(o).toString();
  }

  private static void scribble(Object bytes) {
    if (bytes instanceof Buffer b) {
      for (int i = 0; i < b.length(); i++) {
        b.setByte(i, (byte) 'X');
      }
    } else if (bytes instanceof byte[] a) {
      java.util.Arrays.fill(a, (byte) 'X');
    }
  }
}
