package dev.georesolver.gazetteer;

import java.util.List;

/**
 * What a forward query yields: the matches, best first (empty when none), and the country and
 * region the query named ({@link AskedArea#NONE} when none), which every match respects.
 *
 * @param matches at most {@value ForwardResolver#MAX_RESULTS} matches, best first
 * @param asked the named country and region, to hold other answers to
 */
public record ForwardResolution(List<ForwardMatch> matches, AskedArea asked) {

  public ForwardResolution {
    matches = List.copyOf(matches);
  }
}
