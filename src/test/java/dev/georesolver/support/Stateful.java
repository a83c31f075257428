package dev.georesolver.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A small stateful property-test runner: random sequences of operations are run against the system
 * under test and a plain model, each answer compared, and a failing sequence is shrunk (operations
 * removed while it still fails, largest chunks first) to the shortest one that still fails, which is
 * what the failure reports, with the seed that made it.
 *
 * <p>Written here rather than taken from jqwik: jqwik 1.10's maintainers ask that it not be used by
 * AI coding agents (its "Anti-AI Usage Clause", and a message it prints to them on every run), and
 * this project's code is written with one.
 *
 * @param <O> an operation (a record that prints itself)
 */
public final class Stateful<O> {

  /** Generates one operation from the random source. */
  public interface Generator<O> {
    O next(Random random);
  }

  /**
   * Runs a whole sequence on a fresh system and model and says where they first disagree.
   * Returns null when they agree on every answer.
   */
  public interface Check<O> {
    String run(List<O> ops);
  }

  private final Generator<O> generator;
  private final Check<O> check;

  public Stateful(Generator<O> generator, Check<O> check) {
    this.generator = generator;
    this.check = check;
  }

  /**
   * Runs {@code sequences} random sequences of {@code length} operations from {@code seed}; throws
   * an {@link AssertionError} naming the shortest failing sequence when one disagrees.
   */
  public void run(long seed, int sequences, int length) {
    for (int s = 0; s < sequences; s++) {
      long runSeed = seed + s;
      Random r = new Random(runSeed);
      List<O> ops = new ArrayList<>(length);
      for (int i = 0; i < length; i++) {
        ops.add(generator.next(r));
      }
      String why = check.run(ops);
      if (why != null) {
        List<O> shortest = shrink(ops);
        String shortWhy = check.run(shortest);
        StringBuilder sb = new StringBuilder("the system and the model disagree (seed ").append(runSeed).append(", shrunk from ")
            .append(ops.size()).append(" to ").append(shortest.size()).append(" operations): ").append(shortWhy).append('\n');
        for (int i = 0; i < shortest.size(); i++) {
          sb.append("  ").append(i + 1).append(". ").append(shortest.get(i)).append('\n');
        }
        throw new AssertionError(sb.toString());
      }
    }
  }

  /** The shortest sequence found that still fails: chunks removed, then single operations, until nothing can go. */
  List<O> shrink(List<O> failing) {
    List<O> current = new ArrayList<>(failing);
    for (int chunk = Math.max(1, current.size() / 2); chunk >= 1; chunk /= 2) {
      boolean removed = true;
      while (removed) {
        removed = false;
        for (int at = 0; at + chunk <= current.size(); ) {
          List<O> without = new ArrayList<>(current.subList(0, at));
          without.addAll(current.subList(at + chunk, current.size()));
          if (check.run(without) != null) {
            current = without;
            removed = true;
          } else {
            at += chunk;
          }
        }
      }
    }
    return current;
  }

  /** A check from a fresh-state factory and a step that compares one operation's answers (null: they agree). */
  public static <O, S> Check<O> stepwise(java.util.function.Supplier<S> fresh, java.util.function.BiFunction<S, O, String> step,
      java.util.function.Consumer<S> close) {
    return ops -> {
      S state = fresh.get();
      try {
        for (int i = 0; i < ops.size(); i++) {
          String why = step.apply(state, ops.get(i));
          if (why != null) {
            return "operation " + (i + 1) + " " + ops.get(i) + ": " + why;
          }
        }
        return null;
      } finally {
        close.accept(state);
      }
    };
  }

}
