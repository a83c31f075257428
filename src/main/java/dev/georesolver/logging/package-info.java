/**
 * How the process logs: the format chosen at start ({@link dev.georesolver.logging.Logs}: text or
 * one JSON object a line) and the converters that keep every text event on one line. Owns the
 * Logback configuration and nothing else; it knows no verticle and no request.
 */
package dev.georesolver.logging;
