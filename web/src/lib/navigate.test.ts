import { on } from './events';
import { loginUrl, navigate } from './navigate';

describe('loginUrl', () => {
  it('asks the sign-in page to come back here', () => {
    history.replaceState(null, '', '/product/oslo-bed?x=1');
    expect(loginUrl()).toBe('/user/login?redirect=%2Fproduct%2Foslo-bed%3Fx%3D1');
    history.replaceState(null, '', '/');
    expect(loginUrl()).toBe('/user/login');
  });
});

describe('navigate', () => {
  it('tells the loading bar the page is going', () => {
    const seen: string[] = [];
    const off = on('loading:route', ({ url }) => seen.push(url));
    navigate('#top'); // jsdom follows only a change of hash
    off();
    expect(seen).toEqual(['#top']);
    expect(location.hash).toBe('#top');
  });
});
