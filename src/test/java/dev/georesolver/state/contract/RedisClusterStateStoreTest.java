package dev.georesolver.state.contract;

import dev.georesolver.support.Backends;

/** The store's contract on a real three-master Redis Cluster: every transaction keeps to one slot. */
class RedisClusterStateStoreTest extends RedisStateStoreTest {

  @Override
  protected String url() {
    return Backends.cluster().url();
  }
}
