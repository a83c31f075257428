/**
 * Time as a request spends it: the monotonic {@link dev.georesolver.deadline.Ticker} (injectable,
 * so tests never sleep), one request's {@link dev.georesolver.deadline.Deadline} (carried between
 * verticles as milliseconds left, re-based on arrival), {@link dev.georesolver.deadline.Stopwatch},
 * and the admission and attempt-timeout arithmetic shared by the chain and the tiers
 * ({@link dev.georesolver.deadline.Admission}). Pure and allocation-light; it must not read the
 * wall clock, schedule timers or know about rungs beyond the numbers it is given.
 */
package dev.georesolver.deadline;
