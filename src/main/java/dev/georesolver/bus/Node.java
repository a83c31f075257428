package dev.georesolver.bus;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.shareddata.Shareable;

import java.util.Set;

/**
 * This process as a node of the event bus: whether the bus is clustered, the node's id, and the
 * roles it runs. It decides, per address ({@link Addresses#reach}), whether a message stays on this
 * node or may cross the cluster: node-local addresses never leave it, and an address served by a role
 * this node runs goes to this node's own verticles; everything else is the cluster's to route.
 *
 * <p>Installed once per {@link Vertx} by the resolver before any part starts (a shared local map
 * entry), and read by each part at its start with {@link #of}; a Vert.x instance it was never
 * installed on reads as {@link #standalone()}. Immutable, so shared by every thread.
 *
 * @param clustered whether the event bus is clustered
 * @param id the node's id in the cluster (the cluster manager's), or {@value #STANDALONE_ID}
 * @param roles the roles this node runs
 */
public record Node(boolean clustered, String id, Set<Role> roles) implements Shareable {

  /** The id of a node that is not in a cluster. */
  public static final String STANDALONE_ID = "standalone";

  private static final String MAP = "georesolver.node";

  public Node {
    roles = Set.copyOf(roles);
  }

  /** A process on its own with every role: every message stays in it. */
  public static Node standalone() {
    return new Node(false, STANDALONE_ID, Role.ALL);
  }

  /** Installs {@code node} on {@code vertx}; the first one installed stands (several resolvers may share a test's Vert.x). */
  public static void install(Vertx vertx, Node node) {
    vertx.sharedData().<String, Node>getLocalMap(MAP).putIfAbsent("node", node);
  }

  /** The node installed on {@code vertx}, or {@link #standalone()}. */
  public static Node of(Vertx vertx) {
    Node n = vertx.sharedData().<String, Node>getLocalMap(MAP).get("node");
    return n != null ? n : standalone();
  }

  /** The node of the Vert.x instance whose context the caller runs on, or {@link #standalone()} off any context. */
  public static Node current() {
    io.vertx.core.Context c = Vertx.currentContext();
    return c == null ? standalone() : of(c.owner());
  }

  /** Whether this node runs {@code role}. */
  public boolean runs(Role role) {
    return roles.contains(role);
  }

  /**
   * Whether a message to {@code address} is delivered on this node only: the address is node-local,
   * or this node runs the role that serves it (its own chain, tiers, store), so no hop is paid and,
   * for tiers, the breaker the chain's view follows is the one that is asked.
   */
  public boolean keepsLocal(String address) {
    Addresses.Reach r = Addresses.reach(address);
    return r == Addresses.Reach.NODE || (r.servedBy() != null && runs(r.servedBy()));
  }

  /** New delivery options for {@code address}: local only when {@link #keepsLocal} says so (no effect on a bus that is not clustered). */
  public DeliveryOptions to(String address) {
    DeliveryOptions o = new DeliveryOptions();
    return keepsLocal(address) ? o.setLocalOnly(true) : o;
  }
}
