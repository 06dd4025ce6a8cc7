package genconf

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// kmsMasterKeys are the master keys of the in-memory KMS that wrapped the
// keys of external_key_material_java (data/README.md), by master key id.
var kmsMasterKeys = map[string][]byte{"kf": []byte(footerKey), "kc1": []byte(doubleKey), "kc2": []byte(floatKey)}

// kmsRetriever returns the key retriever of a file written with
// parquet-mr's key tools and external key material (the .json named
// _KEY_MATERIAL_FOR_<file>.json beside it): each key metadata names an
// entry of the material; with double wrapping the data key is AES-GCM
// encrypted under a key encryption key (AAD: the KEK id), itself
// encrypted under the KMS master key (AAD: the master key id), each stored
// as base64 of nonce, ciphertext and tag.
func kmsRetriever(path string) (func([]byte) ([]byte, error), error) {
	dir, base := filepath.Split(path)
	raw, err := os.ReadFile(filepath.Join(dir, "_KEY_MATERIAL_FOR_"+base+".json"))
	if err != nil {
		return nil, err
	}
	var store map[string]string
	if err := json.Unmarshal(raw, &store); err != nil {
		return nil, err
	}
	unwrap := func(wrapped string, key, aad []byte) ([]byte, error) {
		b, err := base64.StdEncoding.DecodeString(wrapped)
		if err != nil {
			return nil, err
		}
		blk, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		g, err := cipher.NewGCM(blk)
		if err != nil {
			return nil, err
		}
		if len(b) < g.NonceSize()+g.Overhead() {
			return nil, errors.New("wrapped key too short")
		}
		return g.Open(nil, b[:g.NonceSize()], b[g.NonceSize():], aad)
	}
	return func(keyMetadata []byte) ([]byte, error) {
		var ref struct {
			KeyMaterialType string `json:"keyMaterialType"`
			InternalStorage bool   `json:"internalStorage"`
			KeyReference    string `json:"keyReference"`
		}
		if err := json.Unmarshal(keyMetadata, &ref); err != nil {
			return nil, fmt.Errorf("key metadata %q: %w", keyMetadata, err)
		}
		if ref.InternalStorage || ref.KeyMaterialType != "PKMT1" {
			return nil, fmt.Errorf("unsupported key metadata %s", keyMetadata)
		}
		var km struct {
			MasterKeyID        string `json:"masterKeyID"`
			WrappedDEK         string `json:"wrappedDEK"`
			KeyEncryptionKeyID string `json:"keyEncryptionKeyID"`
			WrappedKEK         string `json:"wrappedKEK"`
			DoubleWrapping     bool   `json:"doubleWrapping"`
		}
		if err := json.Unmarshal([]byte(store[ref.KeyReference]), &km); err != nil {
			return nil, fmt.Errorf("key material %q: %w", ref.KeyReference, err)
		}
		master := kmsMasterKeys[km.MasterKeyID]
		if master == nil {
			return nil, fmt.Errorf("unknown master key %q", km.MasterKeyID)
		}
		if !km.DoubleWrapping {
			return unwrap(km.WrappedDEK, master, []byte(km.MasterKeyID))
		}
		kek, err := unwrap(km.WrappedKEK, master, []byte(km.MasterKeyID))
		if err != nil {
			return nil, fmt.Errorf("unwrapping the KEK: %w", err)
		}
		kekID, err := base64.StdEncoding.DecodeString(km.KeyEncryptionKeyID)
		if err != nil {
			return nil, err
		}
		return unwrap(km.WrappedDEK, kek, kekID)
	}, nil
}

// kmsOptions returns the reader options of a file with external key
// material, as values and as Go source for the driver: the test unwraps
// every key the file's footer and column chunks name, and the driver gets
// a retriever looking them up in a table (keyTable in driverMain).
func kmsOptions(path string) ([]runtime.ReaderOption, string, error) {
	retrieve, err := kmsRetriever(path)
	if err != nil {
		return nil, "", err
	}
	keys := map[string][]byte{}
	record := func(md []byte) ([]byte, error) {
		k, err := retrieve(md)
		if err == nil {
			keys[string(md)] = k
		}
		return k, err
	}
	f, fh, err := runtime.OpenPath(path, runtime.WithKeyRetriever(record))
	if err != nil {
		return nil, "", err
	}
	fh.Close()
	for _, rg := range f.Meta.RowGroups {
		for _, cc := range rg.Columns {
			if cm := cc.CryptoMetadata; cm != nil && cm.Kind == meta.CryptoColumnKey {
				if _, err := record(cm.ColumnKey.KeyMetadata); err != nil {
					return nil, "", fmt.Errorf("column %s: %w", strings.Join(cm.ColumnKey.PathInSchema, "."), err)
				}
			}
		}
	}
	if len(keys) == 0 {
		return nil, "", errors.New("no key retrieved")
	}
	table := func(md []byte) ([]byte, error) {
		if k, ok := keys[string(md)]; ok {
			return k, nil
		}
		return nil, fmt.Errorf("no key for key metadata %q", md)
	}
	var mds []string
	for md := range keys {
		mds = append(mds, md)
	}
	sort.Strings(mds)
	var code strings.Builder
	code.WriteString("runtime.WithKeyRetriever(keyTable(map[string]string{")
	for _, md := range mds {
		fmt.Fprintf(&code, "%q: %q, ", md, keys[md])
	}
	code.WriteString("}))")
	return []runtime.ReaderOption{runtime.WithKeyRetriever(table)}, code.String(), nil
}
