package dev.georesolver.state.contract;

import dev.georesolver.support.Backends;

/** The queue's properties on a real three-master Redis Cluster. */
class RedisClusterQueuePropertiesTest extends RedisQueuePropertiesTest {

  @Override
  protected String url() {
    return Backends.cluster().url();
  }
}
