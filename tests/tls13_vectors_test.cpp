// tls13_vectors_test.cpp: the TLS 1.3 key schedule (SHA-256) of RFC 8448 section 3 (1-RTT) and section 4
// (resumed 0-RTT), from tests/vectors/rfc8448-keyschedule.txt: every value the file derives is recomputed from
// its inputs with sha256, hkdf_extract, tls13_derive_secret, tls13_expand_label, hkdf_expand and hmac.
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "shasta/hkdf.hpp"
#include "vector_support.hpp"

namespace shasta::test {
namespace {

// Trace holds the file's named values and records which were recomputed (checked) and which were only
// read as inputs, so that a value the test forgot, or a name it misspelt, fails the test.
class Trace {
 public:
  explicit Trace(const std::string& path) {
    for (const auto& [name, value] : read_assignments(path)) {
      if (!values_.emplace(name, hex(value)).second) ADD_FAILURE() << "repeated name " << name;
    }
  }

  const Bytes& in(const std::string& name) {
    read_.insert(name);
    const auto it = values_.find(name);
    if (it != values_.end()) return it->second;
    ADD_FAILURE() << "no value named " << name;
    static const Bytes kNone;
    return kNone;
  }

  // check compares a recomputed value with the file's value `name` (or, for an HkdfLabel, with `against`:
  // expanding with the file's info bytes must give the value the library derived).
  void check(const std::string& name, const Bytes& got, const std::string& against = "") {
    EXPECT_EQ(to_hex(got), to_hex(in(against.empty() ? name : against))) << name;
    in(name);
    checked_.insert(name);
  }

  std::size_t size() const { return values_.size(); }
  std::size_t checked() const { return checked_.size(); }
  std::size_t inputs_only() const { return read_.size() - checked_.size(); }
  std::set<std::string> unread() const {
    std::set<std::string> out;
    for (const auto& [name, value] : values_) {
      if (read_.count(name) == 0) out.insert(name);
    }
    return out;
  }

 private:
  std::map<std::string, Bytes> values_;
  std::set<std::string> read_, checked_;
};

Bytes transcript(Trace& t, const std::string& s, std::initializer_list<const char*> messages) {
  Sha256 h;
  for (const char* m : messages) h.update(std::span<const std::uint8_t>(t.in(s + "msg_" + m)));
  return bytes_of(h.finalize());
}

Bytes extract(const Bytes& salt, const Bytes& ikm) {
  return bytes_of(hkdf_extract<Sha256>(salt, ikm));
}

// derive and expand_label go through both the raw-secret and the prepared-secret overloads.
Bytes derive(const Bytes& secret, std::string_view label, const Bytes& transcript_hash) {
  Bytes raw(32), prepared(32);
  EXPECT_EQ(tls13_derive_secret<Sha256>(secret, label, transcript_hash, raw), Error::ok) << label;
  EXPECT_EQ(tls13_derive_secret(HmacKey<Sha256>(secret), label, transcript_hash, prepared), Error::ok) << label;
  EXPECT_EQ(raw, prepared) << label;
  return raw;
}

Bytes expand_label(const Bytes& secret, std::string_view label, const Bytes& context, std::size_t n) {
  Bytes raw(n), prepared(n);
  EXPECT_EQ(tls13_expand_label<Sha256>(secret, label, context, raw), Error::ok) << label;
  EXPECT_EQ(tls13_expand_label(HmacKey<Sha256>(secret), label, context, prepared), Error::ok) << label;
  EXPECT_EQ(raw, prepared) << label;
  return raw;
}

Bytes expand_info(const Bytes& secret, const Bytes& info, std::size_t n) {
  Bytes out(n);
  EXPECT_EQ(hkdf_expand<Sha256>(secret, info, out), Error::ok);
  return out;
}

// finished_body drops a Finished message's 4-byte handshake header.
Bytes finished_body(const Bytes& message) {
  if (message.size() < 4) return {};
  return Bytes(message.begin() + 4, message.end());
}

// key_schedule checks the part sections 3 and 4 share, from `s`early_secret on (20 values); the caller checks
// the transcript hashes first. `server_th` and `client_th` name the transcripts the two Finished MACs cover.
void key_schedule(Trace& t, const std::string& s, const std::string& server_th, const std::string& client_th) {
  const Bytes zeros(32, 0);
  const Bytes& empty_hash = t.in("s3.empty_hash");
  t.check(s + "derived_for_handshake", derive(t.in(s + "early_secret"), "derived", empty_hash));
  t.check(s + "handshake_secret", extract(t.in(s + "derived_for_handshake"), t.in(s + "ecdhe_shared_secret")));
  const Bytes& hs = t.in(s + "handshake_secret");
  t.check(s + "client_handshake_traffic_secret", derive(hs, "c hs traffic", t.in(s + "th_ch_sh")));
  t.check(s + "server_handshake_traffic_secret", derive(hs, "s hs traffic", t.in(s + "th_ch_sh")));
  t.check(s + "derived_for_master", derive(hs, "derived", empty_hash));
  t.check(s + "master_secret", extract(t.in(s + "derived_for_master"), zeros));
  const Bytes& ms = t.in(s + "master_secret");
  t.check(s + "client_application_traffic_secret_0", derive(ms, "c ap traffic", t.in(s + "th_ch_sf")));
  t.check(s + "server_application_traffic_secret_0", derive(ms, "s ap traffic", t.in(s + "th_ch_sf")));
  t.check(s + "exporter_master_secret", derive(ms, "exp master", t.in(s + "th_ch_sf")));
  t.check(s + "resumption_master_secret", derive(ms, "res master", t.in(s + "th_ch_cf")));

  // [sender]_write_key and _iv for TLS_AES_128_GCM_SHA256: 16 and 12 bytes.
  const std::map<std::string, std::string> traffic = {{"client_handshake", "client_handshake_traffic_secret"},
                                                      {"server_handshake", "server_handshake_traffic_secret"},
                                                      {"client_application", "client_application_traffic_secret_0"},
                                                      {"server_application", "server_application_traffic_secret_0"}};
  for (const auto& [who, secret] : traffic) {
    t.check(s + who + "_write_key", expand_label(t.in(s + secret), "key", {}, 16));
    t.check(s + who + "_write_iv", expand_label(t.in(s + secret), "iv", {}, 12));
  }

  // verify_data = HMAC(finished_key, transcript), which is also the body of the Finished message in the trace.
  for (const auto& [side, th] : {std::pair<std::string, std::string>{"server", server_th}, {"client", client_th}}) {
    const Bytes key = expand_label(t.in(s + side + "_handshake_traffic_secret"), "finished", {}, 32);
    const Bytes verify_data = bytes_of(hmac<Sha256>(key, t.in(s + th)));
    t.check(s + side + "_finished_verify_data", verify_data);
    EXPECT_EQ(finished_body(t.in(s + "msg_" + side + "_finished")), verify_data) << s << side;
  }
}

TEST(Rfc8448, KeySchedule) {
  Trace t(vector_path("rfc8448-keyschedule.txt"));

  // Section 3: full handshake without a PSK.
  const std::string s3 = "s3.";
  t.check("s3.empty_hash", bytes_of(sha256(Bytes{})));
  t.check("s3.th_ch_sh", transcript(t, s3, {"client_hello", "server_hello"}));
  t.check(
      "s3.th_ch_cv",
      transcript(t, s3, {"client_hello", "server_hello", "encrypted_extensions", "certificate", "certificate_verify"}));
  t.check("s3.th_ch_sf", transcript(t, s3,
                                    {"client_hello", "server_hello", "encrypted_extensions", "certificate",
                                     "certificate_verify", "server_finished"}));
  t.check("s3.th_ch_cf", transcript(t, s3,
                                    {"client_hello", "server_hello", "encrypted_extensions", "certificate",
                                     "certificate_verify", "server_finished", "client_finished"}));
  t.check("s3.early_secret", extract({}, t.in("s3.psk_ikm")));
  key_schedule(t, s3, "th_ch_cv", "th_ch_sf");
  t.check("s3.server_finished_key", expand_label(t.in("s3.server_handshake_traffic_secret"), "finished", {}, 32));
  t.check("s3.client_finished_key", expand_label(t.in("s3.client_handshake_traffic_secret"), "finished", {}, 32));
  t.check("s3.resumption_psk",
          expand_label(t.in("s3.resumption_master_secret"), "resumption", t.in("s3.ticket_nonce"), 32));
  // The file's HkdfLabel bytes, expanded directly, give what the library's label encoding gave.
  const Bytes& hs = t.in("s3.handshake_secret");
  const Bytes& ms = t.in("s3.master_secret");
  const Bytes& shts = t.in("s3.server_handshake_traffic_secret");
  t.check("s3.c_hs_traffic_info", expand_info(hs, t.in("s3.c_hs_traffic_info"), 32),
          "s3.client_handshake_traffic_secret");
  t.check("s3.s_hs_traffic_info", expand_info(hs, t.in("s3.s_hs_traffic_info"), 32),
          "s3.server_handshake_traffic_secret");
  t.check("s3.key_info_16", expand_info(shts, t.in("s3.key_info_16"), 16), "s3.server_handshake_write_key");
  t.check("s3.iv_info_12", expand_info(shts, t.in("s3.iv_info_12"), 12), "s3.server_handshake_write_iv");
  t.check("s3.finished_info", expand_info(shts, t.in("s3.finished_info"), 32), "s3.server_finished_key");
  t.check("s3.c_ap_traffic_info", expand_info(ms, t.in("s3.c_ap_traffic_info"), 32),
          "s3.client_application_traffic_secret_0");
  t.check("s3.exp_master_info", expand_info(ms, t.in("s3.exp_master_info"), 32), "s3.exporter_master_secret");
  t.check("s3.res_master_info", expand_info(ms, t.in("s3.res_master_info"), 32), "s3.resumption_master_secret");

  // Section 4: resumption with section 3's PSK and 0-RTT data.
  const std::string s4 = "s4.";
  t.check("s4.early_secret", extract({}, t.in("s3.resumption_psk")));
  t.check("s4.binder_key", derive(t.in("s4.early_secret"), "res binder", t.in("s3.empty_hash")));
  t.check("s4.binder_finished_key", expand_label(t.in("s4.binder_key"), "finished", {}, 32));
  t.check("s4.th_truncated_client_hello", transcript(t, s4, {"client_hello_truncated"}));
  t.check("s4.psk_binder",
          bytes_of(hmac<Sha256>(t.in("s4.binder_finished_key"), t.in("s4.th_truncated_client_hello"))));
  // The complete ClientHello ends with the binders list: uint16 length 0x21, uint8 length 0x20, the binder.
  Bytes client_hello = t.in("s4.msg_client_hello_truncated");
  client_hello.insert(client_hello.end(), {0x00, 0x21, 0x20});
  client_hello.insert(client_hello.end(), t.in("s4.psk_binder").begin(), t.in("s4.psk_binder").end());
  t.check("s4.msg_client_hello", client_hello);
  t.check("s4.th_ch", transcript(t, s4, {"client_hello"}));
  t.check("s4.client_early_traffic_secret", derive(t.in("s4.early_secret"), "c e traffic", t.in("s4.th_ch")));
  t.check("s4.early_exporter_master_secret", derive(t.in("s4.early_secret"), "e exp master", t.in("s4.th_ch")));
  t.check("s4.client_early_write_key", expand_label(t.in("s4.client_early_traffic_secret"), "key", {}, 16));
  t.check("s4.client_early_write_iv", expand_label(t.in("s4.client_early_traffic_secret"), "iv", {}, 12));
  t.check("s4.th_ch_sh", transcript(t, s4, {"client_hello", "server_hello"}));
  t.check("s4.th_ch_ee", transcript(t, s4, {"client_hello", "server_hello", "encrypted_extensions"}));
  t.check("s4.th_ch_sf",
          transcript(t, s4, {"client_hello", "server_hello", "encrypted_extensions", "server_finished"}));
  t.check("s4.th_ch_eoed",
          transcript(t, s4,
                     {"client_hello", "server_hello", "encrypted_extensions", "server_finished", "end_of_early_data"}));
  t.check("s4.th_ch_cf", transcript(t, s4,
                                    {"client_hello", "server_hello", "encrypted_extensions", "server_finished",
                                     "end_of_early_data", "client_finished"}));
  key_schedule(t, s4, "th_ch_ee", "th_ch_eoed");

  // X25519 is not this library's: the key pairs are inputs only, and the shared secrets feed the chain.
  for (const std::string s : {"s3.", "s4."}) {
    for (const char* key :
         {"client_x25519_private", "client_x25519_public", "server_x25519_private", "server_x25519_public"}) {
      t.in(s + key);
    }
  }
  EXPECT_EQ(t.unread(), std::set<std::string>{}) << "values the test neither checks nor uses";
  EXPECT_EQ(t.size(), 98u);
  EXPECT_EQ(t.checked(), 73u);      // 37 in section 3, 36 in section 4
  EXPECT_EQ(t.inputs_only(), 25u);  // key pairs, shared secrets, handshake messages, the zero PSK, ticket_nonce
}

}  // namespace
}  // namespace shasta::test
