package dev.georesolver.state;

import dev.georesolver.support.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.List;

/** The import of the earlier keys on a real three-master Redis Cluster: every command keeps to one slot. */
class RedisClusterLegacyImportTest extends RedisLegacyImportTest {

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

  @Override
  protected List<String> keys(String pattern) {
    return cluster.keys(pattern);
  }
}
