package dev.georesolver.redis;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shared store's URL: one server or a Redis Cluster. */
class RedisUrlTest {

  @Test
  @DisplayName("a plain redis:// URL is one server, passed through")
  void singleServer() {
    RedisUrl u = RedisUrl.parse("redis://127.0.0.1:6379/1");
    assertThat(u.cluster()).isFalse();
    assertThat(u.endpoints()).containsExactly("redis://127.0.0.1:6379/1");
  }

  @Test
  @DisplayName("redis-cluster:// lists seed nodes, each becomes a redis:// endpoint with the shared credentials")
  void cluster() {
    RedisUrl u = RedisUrl.parse("redis-cluster://app:s3cret@10.0.0.1:7000, 10.0.0.2:7001,[::1]:7002");
    assertThat(u.cluster()).isTrue();
    assertThat(u.endpoints()).containsExactly("redis://app:s3cret@10.0.0.1:7000", "redis://app:s3cret@10.0.0.2:7001",
        "redis://app:s3cret@[::1]:7002");
    assertThat(u.toString()).doesNotContain("s3cret");
    assertThat(RedisUrl.parse("rediss-cluster://h:1").endpoints()).containsExactly("rediss://h:1");
  }

  @Test
  @DisplayName("a cluster URL without nodes, with a bad node or a database number is refused, naming what is wrong")
  void badClusterUrls() {
    assertThatThrownBy(() -> RedisUrl.parse("redis-cluster://")).hasMessageContaining("lists no nodes");
    assertThatThrownBy(() -> RedisUrl.parse("redis-cluster://h:1,nohostport")).hasMessageContaining("'nohostport' is not host:port");
    assertThatThrownBy(() -> RedisUrl.parse("redis-cluster://h:1/3")).hasMessageContaining("only database 0");
    assertThatThrownBy(() -> RedisUrl.parse("redis-cluster://pw@h:99999")).hasMessageContaining("not host:port")
        .hasMessageNotContaining("pw");
  }
}
