import { loginUrl } from './navigate';

describe('loginUrl', () => {
  it('asks the sign-in page to come back here', () => {
    history.replaceState(null, '', '/product/oslo-bed?x=1');
    expect(loginUrl()).toBe('/user/login?redirect=%2Fproduct%2Foslo-bed%3Fx%3D1');
    history.replaceState(null, '', '/');
    expect(loginUrl()).toBe('/user/login');
  });
});
