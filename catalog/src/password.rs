//! Password hashing: argon2id (the crate's default parameters, which follow
//! the OWASP recommendation), stored as a PHC string. One place for the
//! seeder's demo accounts and the origin's sign-ups and sign-ins.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// Hashes `password` with a random salt.
pub fn hash(password: &str) -> anyhow::Result<String> {
    let mut salt = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut salt);
    hash_with_salt(password, &salt)
}

/// Hashes `password` with `salt` (16 bytes): deterministic, for the seeder.
pub fn hash_with_salt(password: &str, salt: &[u8; 16]) -> anyhow::Result<String> {
    let salt = SaltString::encode_b64(salt).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow::anyhow!("argon2id: {e}"))?
        .to_string())
}

/// Whether `password` matches the stored `phc` string; false for anything
/// malformed.
pub fn verify(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let phc = hash("demo-password-1").unwrap();
        assert!(phc.starts_with("$argon2id$"));
        assert!(verify("demo-password-1", &phc));
        assert!(!verify("demo-password-2", &phc));
        assert!(!verify("demo-password-1", "not a hash"));
        let a = hash_with_salt("x", &[7; 16]).unwrap();
        assert_eq!(a, hash_with_salt("x", &[7; 16]).unwrap());
    }
}
