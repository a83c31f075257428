package dev.georesolver.geo;


/** Which way a lookup goes: address to point, or point to place. */
public enum Direction {
  FORWARD,
  REVERSE
}
