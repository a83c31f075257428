package dev.georesolver.state.contract;

import dev.georesolver.support.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The queue's properties on a real three-master Redis Cluster. */
class RedisClusterQueuePropertiesTest extends RedisQueuePropertiesTest {

  private static RedisCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = RedisCluster.start();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @Override
  protected String url() {
    return cluster.url();
  }
}
